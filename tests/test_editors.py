"""Editor support: the TextMate grammar (made from the Pygments lexer's word lists) highlights
every rules file in games/ with VS Code's own tokenizer (vscode-textmate and Oniguruma, from
npm): no stretch of text left unmatched, no region left open."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import GAMES, ROOT
from regle import textmate
from regle.highlight import BUILTINS, KEYWORDS

CHECK = ROOT / "tests" / "textmate" / "check.js"
FILES = sorted(str(p) for p in GAMES.glob("**/*.rules"))


def test_the_shipped_grammar_is_the_one_made_from_the_lexers_words():
    assert textmate.SHIPPED.read_text(encoding="utf-8") == textmate.text(), "run: python -m regle.textmate > " \
        + str(textmate.SHIPPED.relative_to(ROOT))
    words = json.dumps(textmate.grammar())
    assert all(k in words for k in KEYWORDS) and all(b in words for b in BUILTINS)
    assert "announce" in KEYWORDS  # a keyword added to the grammar reaches editors by itself
    assert textmate.VIM.read_text(encoding="utf-8") == textmate.vim_syntax(), "run: python -m regle.textmate --vim > " \
        + str(textmate.VIM.relative_to(ROOT))


@pytest.fixture(scope="module")
def node_modules():
    """vscode-textmate and vscode-oniguruma, installed once from npm into a cache folder."""
    if not shutil.which("node") or not shutil.which("npm"):
        pytest.skip("node and npm are needed to run VS Code's tokenizer")
    folder = Path(os.environ.get("REGLE_NPM_CACHE", Path.home() / ".cache" / "regle" / "npm"))
    if not (folder / "node_modules" / "vscode-textmate").exists():
        folder.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(["npm", "install", "--prefix", str(folder), "--no-audit", "--no-fund", "--silent",
                               "vscode-textmate@9", "vscode-oniguruma@2"], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            if os.environ.get("CI"):
                pytest.fail(f"npm install failed: {done.stderr[-500:]}")
            pytest.skip(f"npm install failed (offline?): {done.stderr[-200:]}")
    return folder / "node_modules"


def _tokenize(node_modules: Path, grammar: Path, files: list[str]) -> dict:
    done = subprocess.run(["node", str(CHECK), str(grammar), *files], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NODE_PATH": str(node_modules)})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_games_file_is_highlighted_without_an_unmatched_region(node_modules):
    report = _tokenize(node_modules, textmate.SHIPPED, FILES)
    assert set(report) == set(FILES)
    for file, found in report.items():
        assert found["problems"] == [], file
        assert found["scopes"].get("keyword.control.regle", 0) >= 3, file  # every file has declarations
    scopes = {s for found in report.values() for s in found["scopes"]}
    for scope in ("comment.block.documentation.regle", "string.quoted.double.regle", "support.function.builtin.regle",
                  "constant.numeric.integer.regle", "variable.other.placeholder.regle", "keyword.operator.word.regle"):
        assert scope in scopes


def test_the_check_finds_what_a_grammar_leaves_unmatched(node_modules, tmp_path):
    """The check can fail: without its punctuation rule, the grammar leaves brackets unmatched."""
    broken = textmate.grammar()
    broken["patterns"] = [p for p in broken["patterns"] if p["include"] != "#punctuation"]
    path = tmp_path / "broken.tmLanguage.json"
    path.write_text(json.dumps(broken), encoding="utf-8")
    report = _tokenize(node_modules, path, FILES[:1])
    assert any("no rule matched" in p for p in report[FILES[0]]["problems"])


@pytest.mark.skipif(not shutil.which("vim"), reason="vim is not installed")
def test_the_vim_syntax_loads_and_names_keywords_and_placeholders(tmp_path):
    script = tmp_path / "check.vim"
    out = tmp_path / "out"
    script.write_text(
        "let out = []\ntry\n  source " + str(textmate.VIM) + "\ncatch\n  call add(out, v:exception)\nendtry\n"
        "for [pattern, offset] in [['action', 0], ['\"{c}\"', 1], ['in_a_row', 0], ['///', 0]]\n"
        "  let at = search(pattern, 'w')\n"
        "  call add(out, synIDattr(synID(at, col('.') + offset, 1), 'name'))\nendfor\n"
        f"call writefile(out, '{out}')\nqa!\n", encoding="utf-8")
    subprocess.run(["vim", "-Nu", "NONE", "-i", "NONE", "-es", "-c", f"edit {GAMES / 'classics' / 'tictactoe.rules'}",
                    "-S", str(script)], timeout=60, capture_output=True)
    assert out.read_text().split() == ["regleKeyword", "reglePlaceholder", "regleBuiltin", "regleDoc"]


SOFT = '''game "Soft" {
  seats left, right
}
param size = 3
enum side { up, down }
grid board: player square 3 by 3
define place(c) = row(board, c) + size
turn {
  step move {
    action place(c in empty_cells(board)) "{c}" {
      let step = place(c)
      require step > 0 and not (size < 0)
      put me at c on board
    }
  }
}
end when count(empty_cells(board)) == 0
'''


def test_keywords_spelt_as_names_are_coloured_as_names(node_modules, tmp_path):
    """The language's words are soft: `side`, `place`, `move`, `step` and `size` name things here
    (a declaration, a binding, a call, a value in an expression), and are coloured as names;
    where they act as keywords they stay keywords."""
    path = tmp_path / "soft.rules"
    path.write_text(SOFT, encoding="utf-8")
    regle_check = subprocess.run([sys.executable, "-m", "regle.cli", "check", str(path)], capture_output=True, text=True)
    assert regle_check.returncode == 0, regle_check.stdout + regle_check.stderr  # the file is a real game
    done = subprocess.run(["node", str(CHECK), str(textmate.SHIPPED), str(path)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "NODE_PATH": str(node_modules), "CHECK_TOKENS": "1"})
    assert done.returncode == 0, done.stderr
    words = {(line, text): scope for line, text, scope in json.loads(done.stdout)[str(path)]["words"]}
    names = {(4, "size"), (5, "side"), (7, "place"), (7, "size"), (9, "move"), (10, "place"), (11, "step"),
             (11, "place"), (12, "step"), (12, "size")}
    for at in names:
        assert not words[at].startswith("keyword"), (at, words[at])
    for at in ((4, "param"), (5, "enum"), (7, "define"), (9, "step"), (10, "action"), (11, "let"), (12, "require"),
               (13, "put"), (6, "square"), (6, "by")):
        assert words[at] == "keyword.control.regle", (at, words[at])
    # and Pygments (the HTML rulebook) names the declared and called ones
    from pygments.token import Keyword
    from regle.highlight import RulesLexer
    tokens = [(t, v) for t, v in RulesLexer().get_tokens(SOFT) if v in ("side", "place", "move")]
    assert tokens and all(t not in Keyword for t, _ in tokens)
