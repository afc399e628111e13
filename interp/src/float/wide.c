/* Bridges from Rust to glibc's x87 `long double` (f80) and `_Float128`
 * (f128) math functions, which Rust cannot call directly: it has no type
 * with those calling conventions. mlir-runner lowers math.sin on f80/f128
 * to `sinl`/`sinf128`, so calling the same routines reproduces it.
 * Values cross as little-endian byte arrays of 16 bytes. `f` indexes the
 * functions in the order of `Fn1::ALL` (float/libm.rs) and of `Fn2`. */
#define _GNU_SOURCE
#include <math.h>
#include <string.h>

typedef long double (*ld1)(long double);
typedef _Float128 (*q1)(_Float128);

static const ld1 LD1[] = {expl,  exp2l, expm1l, logl,  log2l,  log10l, log1pl, sinl,  cosl,  tanl,  asinl,
                          acosl, atanl, sinhl,  coshl, tanhl,  asinhl, acoshl, atanhl, erfl, erfcl, cbrtl};
static const q1 Q1[] = {expf128,  exp2f128,  expm1f128, logf128,  log2f128,  log10f128, log1pf128, sinf128,
                        cosf128,  tanf128,   asinf128,  acosf128, atanf128,  sinhf128,  coshf128,  tanhf128,
                        asinhf128, acoshf128, atanhf128, erff128, erfcf128, cbrtf128};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Returns 0 on success, -1 for an unknown function index. */
int mlir_interp_f80_unary(int f, const unsigned char *in, unsigned char *out) {
    long double x = 0, y;
    if (f < 0 || f >= COUNT(LD1)) return -1;
    memcpy(&x, in, 10);
    y = LD1[f](x);
    memset(out, 0, 16);
    memcpy(out, &y, 10);
    return 0;
}

int mlir_interp_f128_unary(int f, const unsigned char *in, unsigned char *out) {
    _Float128 x, y;
    if (f < 0 || f >= COUNT(Q1)) return -1;
    memcpy(&x, in, 16);
    y = Q1[f](x);
    memcpy(out, &y, 16);
    return 0;
}

/* f: 0 pow, 1 atan2. */
int mlir_interp_f80_binary(int f, const unsigned char *a, const unsigned char *b, unsigned char *out) {
    long double x = 0, y = 0, z;
    memcpy(&x, a, 10);
    memcpy(&y, b, 10);
    if (f == 0) z = powl(x, y);
    else if (f == 1) z = atan2l(x, y);
    else return -1;
    memset(out, 0, 16);
    memcpy(out, &z, 10);
    return 0;
}

int mlir_interp_f128_binary(int f, const unsigned char *a, const unsigned char *b, unsigned char *out) {
    _Float128 x, y, z;
    memcpy(&x, a, 16);
    memcpy(&y, b, 16);
    if (f == 0) z = powf128(x, y);
    else if (f == 1) z = atan2f128(x, y);
    else return -1;
    memcpy(out, &z, 16);
    return 0;
}
