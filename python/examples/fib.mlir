// fib(20) by naive recursion: the program of the xDSL comparison
// (bench/compare_xdsl.py) and of the observer test (tests/test_calls.py).
func.func @fib(%n: i64) -> i64 {
  %c2 = arith.constant 2 : i64
  %small = arith.cmpi slt, %n, %c2 : i64
  %r = scf.if %small -> (i64) {
    scf.yield %n : i64
  } else {
    %c1 = arith.constant 1 : i64
    %a = arith.subi %n, %c1 : i64
    %b = arith.subi %n, %c2 : i64
    %fa = func.call @fib(%a) : (i64) -> i64
    %fb = func.call @fib(%b) : (i64) -> i64
    %s = arith.addi %fa, %fb : i64
    scf.yield %s : i64
  }
  return %r : i64
}
func.func @main() -> i64 {
  %n = arith.constant 20 : i64
  %r = func.call @fib(%n) : (i64) -> i64
  return %r : i64
}
