// Tokenizes rules files with a TextMate grammar the way VS Code does (vscode-textmate with the
// Oniguruma regex engine) and reports, per file, every stretch of text no rule of the grammar
// matched, every `invalid` scope, a region still open at the end of the file, and how many
// tokens each scope got.  Usage: node check.js GRAMMAR.json FILE...   (prints JSON)
// With CHECK_TOKENS=1 in the environment, each file's report also lists its words and the
// innermost scope each got, as [line, text, scope].
const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const [grammarPath, ...files] = process.argv.slice(2);
const wasm = fs.readFileSync(path.join(path.dirname(require.resolve("vscode-oniguruma")), "onig.wasm")).buffer;
const onigLib = oniguruma.loadWASM(wasm).then(() => ({
  createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
  createOnigString: (s) => new oniguruma.OnigString(s),
}));
const registry = new vsctm.Registry({
  onigLib,
  loadGrammar: async (scope) =>
    scope === "source.regle" ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath) : null,
});

registry.loadGrammar("source.regle").then((grammar) => {
  const report = {};
  for (const file of files) {
    const problems = [];
    const scopes = {};
    const words = [];
    let stack = vsctm.INITIAL;
    fs.readFileSync(file, "utf8").split("\n").forEach((line, i) => {
      const result = grammar.tokenizeLine(line, stack);
      for (const token of result.tokens) {
        const text = line.slice(token.startIndex, token.endIndex);
        const inner = token.scopes[token.scopes.length - 1];
        if (token.scopes.length === 1 && text.trim() !== "") problems.push(`${i + 1}: no rule matched ${JSON.stringify(text)}`);
        if (token.scopes.some((s) => s.startsWith("invalid"))) problems.push(`${i + 1}: invalid ${JSON.stringify(text)}`);
        scopes[inner] = (scopes[inner] || 0) + 1;
        if (process.env.CHECK_TOKENS && /^\w+$/.test(text)) words.push([i + 1, text, inner]);
      }
      stack = result.ruleStack;
    });
    if (stack.depth !== vsctm.INITIAL.depth) problems.push(`a region is still open at the end (depth ${stack.depth})`);
    report[file] = process.env.CHECK_TOKENS ? { problems, scopes, words } : { problems, scopes };
  }
  process.stdout.write(JSON.stringify(report));
});
