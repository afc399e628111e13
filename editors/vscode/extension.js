// Starts `mlir-interp dap` (the path from the mlir-interp.path setting) as
// the debug adapter for launch configurations of type "mlir-interp".
const vscode = require("vscode");

function activate(context) {
  const factory = {
    createDebugAdapterDescriptor() {
      const exe = vscode.workspace.getConfiguration("mlir-interp").get("path") || "mlir-interp";
      return new vscode.DebugAdapterExecutable(exe, ["dap"]);
    },
  };
  context.subscriptions.push(vscode.debug.registerDebugAdapterDescriptorFactory("mlir-interp", factory));
}

function deactivate() {}

module.exports = { activate, deactivate };
