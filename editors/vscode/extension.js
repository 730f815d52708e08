// The regle rules extension: the language itself (highlighting, comments, brackets) is declared
// in package.json; this starts the regle language server (`regle lsp`, installed with
// `pip install 'regle[lsp]'`) for every *.rules file, and stops it with the window.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("regle");
  const server = { command: settings.get("server.command", "regle"), args: settings.get("server.args", ["lsp"]) };
  client = new LanguageClient("regle", "regle language server", { run: server, debug: server }, {
    documentSelector: [{ scheme: "file", language: "regle" }, { scheme: "untitled", language: "regle" }],
  });
  client.start().catch((error) => {
    vscode.window.showWarningMessage(
      `regle: the language server did not start (${error.message}). Highlighting still works; ` +
      "install it with pip install 'regle[lsp]' and set regle.server.command to that regle.");
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
