// Decomposes linalg's aggregate ops (linalg.softmax) into the structured
// ops mlir-opt defines them by, so that tools/record_decomposed.sh can
// lower and run them with LLVM's own tools: no pass does this, only the
// transform dialect's decompose_interface.
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %done = transform.structured.decompose_interface %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
