"""The VS Code extension (editors/vscode/): packaged into a .vsix with vsce from npm, as a user
of the repository builds it (docs/editors.md), holding the grammar the package ships, the
language configuration (comments, brackets) and the client that starts `regle lsp`."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

import regle
from conftest import ROOT
from regle import textmate

SOURCE = ROOT / "editors" / "vscode"


def _npm_install(folder: Path, *packages: str) -> None:
    done = subprocess.run(["npm", "install", "--prefix", str(folder), "--no-audit", "--no-fund", "--silent",
                           *packages], capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"npm install failed: {done.stderr[-500:]}")
        pytest.skip(f"npm install failed (offline?): {done.stderr[-200:]}")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """The extension's folder, made as docs/editors.md says, and its .vsix packaged by vsce."""
    if not shutil.which("node") or not shutil.which("npm"):
        pytest.skip("node and npm are needed to package the VS Code extension")
    tools = Path(os.environ.get("REGLE_NPM_CACHE", Path.home() / ".cache" / "regle" / "npm")).with_name("npm-vsce")
    if not (tools / "node_modules" / ".bin" / "vsce").exists():
        tools.mkdir(parents=True, exist_ok=True)
        _npm_install(tools, "@vscode/vsce@3")
    folder = tmp_path_factory.mktemp("vscode") / "regle-rules"
    shutil.copytree(SOURCE, folder, ignore=shutil.ignore_patterns("node_modules", "*.vsix"))
    shutil.copy(textmate.SHIPPED, folder / "regle.tmLanguage.json")
    shutil.copy(ROOT / "LICENSE", folder / "LICENSE")
    _npm_install(folder)  # its one dependency, the language client
    # (no public repository to link the README to: the one flag vsce then asks for)
    packed = subprocess.run([str(tools / "node_modules" / ".bin" / "vsce"), "package", "--allow-missing-repository",
                             "-o", str(folder / "regle-rules.vsix")], cwd=folder, capture_output=True, text=True,
                            timeout=300)
    assert packed.returncode == 0, packed.stdout[-2000:] + packed.stderr[-2000:]
    return folder


def test_the_vsix_holds_the_grammar_the_configuration_and_the_client(built):
    with zipfile.ZipFile(built / "regle-rules.vsix") as vsix:
        names = set(vsix.namelist())
        manifest = json.loads(vsix.read("extension/package.json"))
        grammar = vsix.read("extension/regle.tmLanguage.json").decode("utf-8")
        configuration = json.loads(vsix.read("extension/language-configuration.json"))
    assert {"extension/extension.js", "extension/LICENSE.txt", "extension/readme.md",
            "extension/node_modules/vscode-languageclient/node.js"} <= names
    assert grammar == textmate.SHIPPED.read_text(encoding="utf-8")  # the grammar the package ships
    assert manifest["version"] == regle.__version__
    language, = manifest["contributes"]["languages"]
    assert language["extensions"] == [".rules"] and language["configuration"] == "./language-configuration.json"
    assert manifest["contributes"]["grammars"][0]["scopeName"] == "source.regle"
    assert manifest["activationEvents"] == ["onLanguage:regle"]
    assert configuration["comments"] == {"lineComment": "#"}  # comment toggling: rules comments are #
    assert ["{", "}"] in configuration["brackets"] and ["(", ")"] in configuration["brackets"]


ACTIVATE = r"""
// extension.js activated and deactivated with VS Code's API and the language client stood in
// for: what it starts, for which files, and that it stops.
const Module = require("module");
const seen = { started: 0, stopped: 0 };
const vscode = {
  workspace: { getConfiguration: () => ({ get: (key, fallback) => fallback }) },
  window: { showWarningMessage: (text) => { seen.warning = text; } },
};
class LanguageClient {
  constructor(id, name, server, client) { Object.assign(seen, { id, server, selector: client.documentSelector }); }
  start() { seen.started += 1; return Promise.resolve(); }
  stop() { seen.stopped += 1; return Promise.resolve(); }
}
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === "vscode") return vscode;
  if (request === "vscode-languageclient/node") return { LanguageClient };
  return load.call(this, request, ...rest);
};
const extension = require(process.argv[2]);
const context = { subscriptions: [] };
extension.activate(context);
Promise.resolve(extension.deactivate()).then(() => process.stdout.write(JSON.stringify(seen)));
"""


def test_the_extension_starts_the_language_server_for_rules_files(built, tmp_path):
    script = tmp_path / "activate.js"
    script.write_text(ACTIVATE, encoding="utf-8")
    done = subprocess.run(["node", str(script), str(built / "extension.js")], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["server"]["run"] == {"command": "regle", "args": ["lsp"]}
    assert {"scheme": "file", "language": "regle"} in seen["selector"]
    assert seen["started"] == 1 and seen["stopped"] == 1 and "warning" not in seen
