import numpy as np, mlir_interp as mi
prog = mi.Program.parse("""
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>, %c: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}""")
a, b = np.arange(6, dtype=np.float32).reshape(2, 3), np.ones((3, 2), np.float32)
(c,) = mi.Interpreter(prog).call("matmul", a, b, np.zeros((2, 2), np.float32))
print(c)                       # [[ 3.  3.] [12. 12.]]
assert (c == a @ b).all()
