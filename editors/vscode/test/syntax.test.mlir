// SYNTAX TEST "source.mlir" "mlir-interp's MLIR grammar"
#map = affine_map<(d0) -> (d0 + 1)>
// <---- entity.name.type.alias.mlir
//   ^ keyword.operator.assignment.mlir
//     ^^^^^^^^^^ keyword.other.mlir
//                     ^^ keyword.operator.arrow.mlir
func.func @main(%arg0: tensor<4x?xf32>, %m: memref<2x[8]xi8>) -> i32 attributes {llvm.emit_c_interface} {
// <--------- entity.name.function.op.mlir
//        ^^^^^ entity.name.function.symbol.mlir
//              ^^^^^ variable.other.value.mlir
//                     ^^^^^^ storage.type.builtin.mlir
//                            ^ constant.numeric.dimension.mlir
//                             ^ punctuation.separator.dimension.mlir
//                              ^ constant.numeric.dimension.mlir
//                                ^^^ storage.type.builtin.mlir
//                                          ^^^^^^ storage.type.builtin.mlir
//                                                 ^ constant.numeric.dimension.mlir
//                                                   ^ punctuation.section.scalable.begin.mlir
//                                                    ^ constant.numeric.dimension.mlir
//                                                       ^^ storage.type.builtin.mlir
//                                                            ^^ keyword.operator.arrow.mlir
//                                                                   ^^^^^^^^^^ keyword.other.mlir
  %c0 = arith.constant 0x7FC00000 : i32
//^^^ variable.other.value.mlir
//      ^^^^^^^^^^^^^^ entity.name.function.op.mlir
//                     ^^^^^^^^^^ constant.numeric.hex.mlir
//                                  ^^^ storage.type.builtin.mlir
  %r:2 = "test.two"() {v = dense<[1.5, -2]> : vector<2xf32>, k = #tosa.nan_mode<IGNORE>} : () -> (i32, i32)
//        ^^^^^^^^ entity.name.function.op.mlir
//                         ^^^^^ keyword.other.mlir
//                                ^^^ constant.numeric.float.mlir
//                                     ^^ constant.numeric.integer.mlir
//                                            ^^^^^^ storage.type.builtin.mlir
//                                                     ^^^ storage.type.builtin.mlir
//                                                               ^^^^^^^^^^^^^^ constant.other.attribute.mlir
  vector.print %r#1 : i32
//^^^^^^^^^^^^ entity.name.function.op.mlir
//             ^^^^ variable.other.value.mlir
//                ^ constant.numeric.result.mlir
  %p = llvm.mlir.zero : !llvm.ptr
//     ^^^^^^^^^^^^^^ entity.name.function.op.mlir
//                      ^^^^^^^^^ storage.type.dialect.mlir
  cf.br ^bb1(%c0 : i32) // a "comment" with @words
//^^^^^ entity.name.function.op.mlir
//      ^^^^ entity.name.label.block.mlir
//                      ^^^^^^^^^^^^^^^^^^^^^^^^^^ comment.line.double-slash.mlir
^bb1(%x: i32):
// <---- entity.name.label.block.mlir
  %s = scf.for %i = %c0 to %c0 step %c0 iter_args(%a = %x) -> (i32) {
//     ^^^^^^^ entity.name.function.op.mlir
//                      ^^ keyword.other.mlir
//                             ^^^^ keyword.other.mlir
//                                      ^^^^^^^^^ keyword.other.mlir
    scf.yield %a : i32
//  ^^^^^^^^^ entity.name.function.op.mlir
  }
  %t = "tosa.const"() <{values = dense<"0x0A0B"> : tensor<2xi8>}> : () -> tensor<2xi8>
//      ^^^^^^^^^^ entity.name.function.op.mlir
//                                     ^^^^^^^^ string.quoted.double.mlir
//                                                 ^^^^^^ storage.type.builtin.mlir
  %e = tensor.empty() : tensor<0xf32>
//     ^^^^^^^^^^^^ entity.name.function.op.mlir
//                             ^ constant.numeric.dimension.mlir
//                               ^^^ storage.type.builtin.mlir
  %z = arith.constant dense<0> : tensor<0x10xi64>
//                                      ^ constant.numeric.dimension.mlir
//                                       ^ punctuation.separator.dimension.mlir
//                                        ^^ constant.numeric.dimension.mlir
//                                           ^^^ storage.type.builtin.mlir
  return %c0 : i32
//^^^^^^ source.mlir - entity.name.function.op.mlir
}
