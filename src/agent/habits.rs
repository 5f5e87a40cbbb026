//! Mending the JavaScript, Rust and Python habits small models bring to Rhai, before the code is compiled.
//!
//! A model that writes `const n = bot.inventory().length;` or `fn mine(name: &str)` means something Rhai can say
//! plainly; it should not spend an LLM call (or a world attempt) learning that. Each habit here is rewritten only when
//! its meaning is unambiguous (`===` is `==`, `function f(` is `fn f(`, `for (let i = 0; i < n; i++)` is
//! `for i in 0..n`); a habit whose meaning is not (`match`, a `for (…; …; …)` loop that counts down, `for (x in …)`,
//! `println!` with a format) is reported with the line and what Rhai writes instead.
//!
//! Strings and comments are never touched: every rule matches on a copy of the code whose string and comment bytes
//! are masked, and a rewrite's byte range is always code.

use std::sync::LazyLock;

use regex::{Captures, Regex};

/// Code with its habits mended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Mended {
    pub code: String,
    /// What was rewritten, once per kind of habit (`` `===` → `==` ``), for the log.
    pub mended: Vec<&'static str>,
    /// Habits left as they were, each with its line and what to write instead.
    pub unmended: Vec<String>,
}

/// How a rule rewrites a match: from the captures of the masked code and the original code.
type Rewrite = fn(&Captures, &str) -> Option<String>;

/// One habit: what it is called in the log, the pattern (on masked code) and its rewrite (`None` leaves a match be).
struct Rule {
    what: &'static str,
    pattern: &'static str,
    rewrite: Rewrite,
}

/// A capture's text in the original code (masked bytes are string or comment bytes, which captures may span).
fn orig<'a>(caps: &Captures, i: usize, code: &'a str) -> &'a str {
    caps.get(i).map_or("", |m| &code[m.range()])
}

const RULES: &[Rule] = &[
    Rule {
        what: "`function f(` → `fn f(`",
        pattern: r"\b(?:async\s+)?function\s+(\w+)\s*\(",
        rewrite: |c, code| Some(format!("fn {}(", orig(c, 1, code))),
    },
    Rule {
        what: "`async fn`/`pub fn` → `fn`",
        pattern: r"\b(?:pub|async)\s+(?:async\s+)?fn\b",
        rewrite: |_, _| Some("fn".to_owned()),
    },
    Rule {
        what: "types in a function's parameters",
        pattern: r"\bfn\s+(\w+)\s*\(([^)]*)\)\s*(->\s*[^{]+?)?\s*\{",
        rewrite: |c, code| {
            let params = orig(c, 2, code);
            let names: Vec<&str> = params
                .split(',')
                .map(|p| p.split(':').next().unwrap_or_default().trim())
                .map(|p| p.trim_start_matches('&').trim_start_matches("mut ").trim())
                .filter(|p| !p.is_empty())
                .collect();
            let plain = names.join(", ");
            (c.get(3).is_some() || plain != params.trim()).then(|| format!("fn {}({plain}) {{", orig(c, 1, code)))
        },
    },
    Rule { what: "`let mut` → `let`", pattern: r"\blet\s+mut\s+", rewrite: |_, _| Some("let ".to_owned()) },
    Rule {
        what: "`var`/`const` → `let`",
        pattern: r"\b(?:var|const)\s+(\w+)\s*=",
        rewrite: |c, code| Some(format!("let {} =", orig(c, 1, code))),
    },
    Rule {
        what: "types on `let`",
        pattern: r"\blet\s+(\w+)\s*:\s*[^=;\n]+=",
        rewrite: |c, code| Some(format!("let {} =", orig(c, 1, code))),
    },
    Rule { what: "`===` → `==`", pattern: r"===", rewrite: |_, _| Some("==".to_owned()) },
    Rule { what: "`!==` → `!=`", pattern: r"!==", rewrite: |_, _| Some("!=".to_owned()) },
    Rule { what: "`await` dropped", pattern: r"\bawait\s+", rewrite: |_, _| Some(String::new()) },
    Rule {
        what: "`bot.` dropped",
        pattern: r"\b(?:this\.)?bot\.(\w+)\s*\(",
        rewrite: |c, code| {
            let name = orig(c, 1, code);
            super::check::is_game_function(name).then(|| format!("{name}("))
        },
    },
    Rule {
        what: "`console.log(` → `print(`",
        pattern: r"\bconsole\.(?:log|info|warn|error|debug)\s*\(",
        rewrite: |_, _| Some("print(".to_owned()),
    },
    Rule {
        what: "`println!(\"…\")` → `print(\"…\")`",
        pattern: r#"\b(?:println|print)!\s*\(\s*("[^"{}]*")\s*\)"#,
        rewrite: |c, code| Some(format!("print({})", orig(c, 1, code))),
    },
    Rule {
        what: "`.length` → `.len()`",
        pattern: r"\.(?:length|size)\b(?:\s*\(\s*\))?",
        rewrite: |_, _| Some(".len()".to_owned()),
    },
    Rule {
        what: "C-style `for` → `for i in a..b`",
        pattern: r"\bfor\s*\(\s*(?:let\s+|var\s+|int\s+|const\s+|mut\s+)?(\w+)\s*=\s*([^;]+?)\s*;\s*(\w+)\s*(<=|<)\s*([^;]+?)\s*;\s*(?:(\w+)\s*(?:\+\+|\+=\s*1)|\+\+\s*(\w+))\s*\)",
        rewrite: |c, code| {
            let var = orig(c, 1, code);
            let step = c.get(6).or(c.get(7)).map_or("", |m| &code[m.range()]);
            if orig(c, 3, code) != var || step != var {
                return None;
            }
            let range = if orig(c, 4, code) == "<=" { "..=" } else { ".." };
            Some(format!("for {var} in {}{range}{}", orig(c, 2, code), orig(c, 5, code)))
        },
    },
    Rule {
        what: "`for _ in` → `for _i in`",
        pattern: r"\bfor\s+_\s+in\b",
        rewrite: |_, _| Some("for _i in".to_owned()),
    },
    Rule {
        what: "`for (x of list)` → `for x in list`",
        pattern: r"\bfor\s*\(\s*(?:let\s+|var\s+|const\s+)?(\w+)\s+of\s+([^)]+?)\s*\)",
        rewrite: |c, code| Some(format!("for {} in {}", orig(c, 1, code), orig(c, 2, code))),
    },
    Rule {
        what: "`i++` → `i += 1`",
        pattern: r"\b([A-Za-z_]\w*)\s*(\+\+|--)(\s*[;)\n])",
        rewrite: |c, code| {
            let op = if orig(c, 2, code) == "++" { "+=" } else { "-=" };
            Some(format!("{} {op} 1{}", orig(c, 1, code), orig(c, 3, code)))
        },
    },
    Rule {
        what: "`++i` → `i += 1`",
        pattern: r"(^|[;{\s])(\+\+|--)([A-Za-z_]\w*)(\s*;)",
        rewrite: |c, code| {
            let op = if orig(c, 2, code) == "++" { "+=" } else { "-=" };
            Some(format!("{}{} {op} 1{}", orig(c, 1, code), orig(c, 3, code), orig(c, 4, code)))
        },
    },
    Rule {
        what: "`null`/`undefined`/`None` → `()`",
        pattern: r"\b(?:null|undefined|None)\b",
        rewrite: |_, _| Some("()".to_owned()),
    },
    Rule {
        what: "`True`/`False` → `true`/`false`",
        pattern: r"\b(True|False)\b",
        rewrite: |c, code| Some(orig(c, 1, code).to_lowercase()),
    },
    Rule {
        what: "`Math.floor(` → `floor(`",
        pattern: r"\bMath\.(floor|ceil|round|abs|sqrt|min|max)\s*\(",
        rewrite: |c, code| {
            let name = orig(c, 1, code);
            Some(format!("{}(", if name == "ceil" { "ceiling" } else { name }))
        },
    },
    Rule {
        what: "arrow functions → closures",
        pattern: r"\(([\w\s,]*)\)\s*=>",
        rewrite: |c, code| {
            let params: Vec<&str> = orig(c, 1, code).split(',').map(str::trim).filter(|p| !p.is_empty()).collect();
            Some(format!("|{}|", params.join(", ")))
        },
    },
    Rule {
        what: "arrow functions → closures",
        pattern: r"\b([A-Za-z]\w*)\s*=>",
        rewrite: |c, code| Some(format!("|{}|", orig(c, 1, code))),
    },
    Rule {
        what: "`.unwrap()` dropped",
        pattern: r#"\.(?:unwrap\(\s*\)|expect\(\s*"[^"]*"\s*\))"#,
        rewrite: |_, _| Some(String::new()),
    },
    Rule {
        what: "`?` after a call dropped",
        pattern: r"\)\?(\s*;)",
        rewrite: |c, code| Some(format!("){}", orig(c, 1, code))),
    },
    Rule { what: "`String::from(x)` → `(x)`", pattern: r"\bString::from\s*\(", rewrite: |_, _| Some("(".to_owned()) },
    Rule {
        what: "`Vec::new()`/`vec![]` → `[]`",
        pattern: r"\bVec::new\(\s*\)|\bvec!\s*\[\s*\]",
        rewrite: |_, _| Some("[]".to_owned()),
    },
    Rule { what: "`vec![` → `[`", pattern: r"\bvec!\s*\[", rewrite: |_, _| Some("[".to_owned()) },
    Rule {
        what: "`HashMap::new()` → `#{}`",
        pattern: r"\b(?:HashMap|BTreeMap)::new\(\s*\)",
        rewrite: |_, _| Some("#{}".to_owned()),
    },
    Rule {
        what: "object literals `{a: 1}` → `#{a: 1}`",
        pattern: r#"([=(,\[:]|\breturn)(\s*)\{(\s*)(\w+|"[^"]*")(\s*):"#,
        rewrite: |c, code| {
            Some(format!(
                "{}{}#{{{}{}{}:",
                orig(c, 1, code),
                orig(c, 2, code),
                orig(c, 3, code),
                orig(c, 4, code),
                orig(c, 5, code)
            ))
        },
    },
    Rule { what: "`new Vec3(` → `vec3(`", pattern: r"\bnew\s+Vec3\s*\(", rewrite: |_, _| Some("vec3(".to_owned()) },
    Rule {
        what: "`throw new Error(` → `throw (`",
        pattern: r"\bthrow\s+new\s+\w*Error\s*\(",
        rewrite: |_, _| Some("throw (".to_owned()),
    },
    Rule {
        what: "borrows `&x` dropped",
        pattern: r"([(,]\s*)&(?:mut\s+)?([A-Za-z_])",
        rewrite: |c, code| Some(format!("{}{}", orig(c, 1, code), orig(c, 2, code))),
    },
    Rule {
        what: "`n as f64` → `n.to_float()`",
        pattern: r"(\b\d+)\s+as\s+(f32|f64)\b",
        rewrite: |c, code| Some(format!("{}.0", orig(c, 1, code))),
    },
    Rule {
        what: "`n as i64` → `n.to_int()`",
        pattern: r"\s+as\s+(i8|i16|i32|i64|u8|u16|u32|u64|usize|isize|f32|f64)\b",
        rewrite: |c, code| Some(if orig(c, 1, code).starts_with('f') { ".to_float()" } else { ".to_int()" }.to_owned()),
    },
    Rule { what: "`elif` → `else if`", pattern: r"\belif\b", rewrite: |_, _| Some("else if".to_owned()) },
];

/// Habits whose meaning is not clear enough to rewrite: the pattern and what to say.
const UNCLEAR: &[(&str, &str)] = &[
    (
        r"\bfor\s*\([^;)]*;",
        "a C-style `for (…; …; …)` loop is not Rhai: write `for i in 0..n { … }` (or a `while` loop)",
    ),
    (
        r"\bfor\s*\(\s*(?:let\s+|var\s+|const\s+)?\w+\s+in\b",
        "`for (x in list)` is not Rhai: write `for x in list { … }` (it gives the items themselves)",
    ),
    (r"\bmatch\s+[^{]+\{", "`match` is not Rhai: write `switch value { 1 => …, _ => … }` or `if … else`"),
    (
        r"\b(?:println|print|format)!\s*\(",
        "`println!`/`format!` are not Rhai: write `print(`text ${value}`)` with a backtick string",
    ),
    (r"\bbot\.\w+", "`bot.` is not Rhai: call the functions listed above directly, as `mineBlock(\"oak_log\", 1)`"),
    (r"\bconsole\.\w+", "`console` is not Rhai: use `print(…)` or `chat(…)`"),
    (r"\blet\s*[\[({]", "destructuring (`let [a, b] = …`) is not Rhai: take the parts one by one (`let a = list[0];`)"),
    (r"\bdef\s+\w+\s*\(", "`def` is not Rhai: write `fn name() { … }`"),
    (
        r"\b(?:impl|struct|enum|trait|use|mod)\s+\w+",
        "Rust items (`struct`, `impl`, `use`…) are not Rhai: write plain `fn`s and `let`s",
    ),
    (r"\bnew\s+[A-Z]\w*", "`new` is not Rhai: write a map `#{ key: value }` or an array `[…]`"),
];

static COMPILED_RULES: LazyLock<Vec<(&'static str, Regex, Rewrite)>> = LazyLock::new(|| {
    RULES.iter().map(|rule| (rule.what, Regex::new(rule.pattern).expect("a habit's pattern"), rule.rewrite)).collect()
});

static COMPILED_UNCLEAR: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    UNCLEAR.iter().map(|(pattern, say)| (Regex::new(pattern).expect("a habit's pattern"), *say)).collect()
});

/// Code longer than this is left as it is: no answer within an action's token limit comes near it, and every rule
/// reads the whole code (a megabyte took seconds).
const MAX_MENDED: usize = 64 * 1024;

/// `code` with its habits mended, and those that could not be.
pub fn mend(code: &str) -> Mended {
    if code.len() > MAX_MENDED {
        return Mended { code: code.to_owned(), ..Mended::default() };
    }
    let requoted = single_quoted_strings(code);
    let mut mended = Vec::new();
    if requoted != code {
        mended.push("'text' → \"text\"");
    }
    let mut code = requoted;
    for (what, pattern, rewrite) in COMPILED_RULES.iter() {
        let masked = mask(&code);
        let mut edits = Vec::new();
        for caps in pattern.captures_iter(&masked) {
            let whole = caps.get(0).expect("a match");
            if let Some(new) = rewrite(&caps, &code)
                && new != code[whole.range()]
            {
                edits.push((whole.range(), new));
            }
        }
        if edits.is_empty() {
            continue;
        }
        for (range, new) in edits.into_iter().rev() {
            code.replace_range(range, &new);
        }
        if !mended.contains(what) {
            mended.push(what);
        }
    }
    let masked = mask(&code);
    let mut unmended = Vec::new();
    for (pattern, say) in COMPILED_UNCLEAR.iter() {
        if let Some(found) = pattern.find(&masked) {
            let line = masked[..found.start()].matches('\n').count() + 1;
            unmended.push(format!("line {line}: {say}"));
        }
    }
    Mended { code, mended, unmended }
}

/// What a byte of the code is.
#[derive(Clone, Copy, PartialEq)]
enum In {
    Code,
    Quoted(u8),
    LineComment,
    BlockComment,
}

/// `code` with the bytes inside strings, characters and comments replaced by `\x01` (the quotes and comment marks
/// kept), so patterns see only code and every match's byte range is the same in the original.
fn mask(code: &str) -> String {
    let bytes = code.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut state = In::Code;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let next = bytes.get(i + 1).copied();
        match state {
            In::Code => {
                match (b, next) {
                    (b'/', Some(b'/')) => state = In::LineComment,
                    (b'/', Some(b'*')) => state = In::BlockComment,
                    (b'"' | b'`' | b'\'', _) => state = In::Quoted(b),
                    _ => {}
                }
                out.push(b);
                if matches!(state, In::LineComment | In::BlockComment) {
                    out.push(bytes[i + 1]);
                    i += 1;
                }
            }
            In::Quoted(quote) => {
                if b == b'\\' && next.is_some() {
                    out.extend([1, 1]);
                    i += 2;
                    continue;
                }
                if b == quote {
                    state = In::Code;
                    out.push(b);
                } else if b == b'\n' && quote != b'`' {
                    // An unclosed quote ends at its line, as the compiler will say.
                    state = In::Code;
                    out.push(b);
                } else {
                    out.push(1);
                }
            }
            In::LineComment => {
                if b == b'\n' {
                    state = In::Code;
                    out.push(b);
                } else {
                    out.push(1);
                }
            }
            In::BlockComment => {
                if b == b'*' && next == Some(b'/') {
                    state = In::Code;
                    out.extend(*b"*/");
                    i += 2;
                    continue;
                }
                out.push(if b == b'\n' { b'\n' } else { 1 });
            }
        }
        i += 1;
    }
    // Only ASCII bytes were written in place of others, and every kept byte is a whole ASCII character or part of
    // a character copied entire (code outside quotes is copied byte for byte).
    String::from_utf8(out).unwrap_or_else(|err| String::from_utf8_lossy(err.as_bytes()).into_owned())
}

/// `'oak_log'` (JavaScript's and Python's strings) as `"oak_log"`; a quote around one character is Rhai's character
/// and stays.
fn single_quoted_strings(code: &str) -> String {
    let masked = mask(code);
    let mut out = String::with_capacity(code.len());
    let mut rest_start = 0;
    let mut chars = masked.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c != '\'' {
            continue;
        }
        // The closing quote: the next `'` in the masked text (everything between is masked).
        let Some(close) = masked[at + 1..].find(['\'', '\n']).map(|k| at + 1 + k) else { break };
        if masked.as_bytes()[close] != b'\'' {
            continue;
        }
        let inner = &code[at + 1..close];
        if inner.chars().count() > 1 && !inner.starts_with('\\') {
            out.push_str(&code[rest_start..at]);
            out.push('"');
            out.push_str(&inner.replace('"', "\\\""));
            out.push('"');
            rest_start = close + 1;
        }
        while chars.peek().is_some_and(|(k, _)| *k <= close) {
            chars.next();
        }
    }
    out.push_str(&code[rest_start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mended(code: &str) -> String {
        mend(code).code
    }

    #[test]
    fn javascript_habits_become_rhai() {
        assert_eq!(mended("const n = bot.inventoryCount('oak_log');"), "let n = inventoryCount(\"oak_log\");");
        assert_eq!(
            mended("if (a === 1 && b !== 2) { await bot.chat(\"hi\"); }"),
            "if (a == 1 && b != 2) { chat(\"hi\"); }"
        );
        assert_eq!(mended("for (let i = 0; i < 4; i++) {\n  x++;\n}"), "for i in 0..4 {\n  x += 1;\n}");
        assert_eq!(mended("for (var i = 1; i <= n; i += 1) {}"), "for i in 1..=n {}");
        assert_eq!(mended("for (const item of items) {}"), "for item in items {}");
        assert_eq!(mended("for _ in 0..4 { goTo(p); }"), "for _i in 0..4 { goTo(p); }");
        assert_eq!(mended("function mineLogs() { console.log(list.length); }"), "fn mineLogs() { print(list.len()); }");
        assert_eq!(mended("let found = null; if (x == undefined) {}"), "let found = (); if (x == ()) {}");
        assert_eq!(
            mended("depositItemIntoChest(pos, {cobblestone: 4});"),
            "depositItemIntoChest(pos, #{cobblestone: 4});"
        );
        assert_eq!(mended("let m = { \"oak_log\": 2 };"), "let m = #{ \"oak_log\": 2 };");
        assert_eq!(
            mended("let ore = exploreUntil(d, 60, () => findBlock(\"iron_ore\"));"),
            "let ore = exploreUntil(d, 60, || findBlock(\"iron_ore\"));"
        );
        assert_eq!(mended("list.map(x => x * 2)"), "list.map(|x| x * 2)");
        assert_eq!(mended("let y = Math.floor(x);"), "let y = floor(x);");
        assert_eq!(mended("throw new Error(\"no logs\");"), "throw (\"no logs\");");
        assert_eq!(mended("goTo(new Vec3(1, 64, 2));"), "goTo(vec3(1, 64, 2));");
    }

    #[test]
    fn rust_habits_become_rhai() {
        assert_eq!(
            mended("fn exploreFor(name: &str, max_distance: i64) -> bool {\n  true\n}"),
            "fn exploreFor(name, max_distance) {\n  true\n}"
        );
        assert_eq!(mended("pub fn a(mut n: i64) {}"), "fn a(n) {}");
        assert_eq!(mended("let mut count: i64 = 0;"), "let count = 0;");
        assert_eq!(mended("let p = position().unwrap();"), "let p = position();");
        assert_eq!(mended("mineBlock(\"stone\", 3)?;"), "mineBlock(\"stone\", 3);");
        assert_eq!(mended("let v = vec![1, 2]; let w = Vec::new();"), "let v = [1, 2]; let w = [];");
        assert_eq!(mended("goTo(&pos); let d = n as f64 / 2 as f64;"), "goTo(pos); let d = n.to_float() / 2.0;");
        assert_eq!(mended("println!(\"done\");"), "print(\"done\");");
        assert_eq!(mended("let s = String::from(\"a\");"), "let s = (\"a\");");
    }

    #[test]
    fn strings_and_comments_are_left_alone() {
        for code in [
            "chat(\"a === b, const x = null; for (let i = 0; i < 3; i++)\");",
            "// const x = bot.mineBlock('oak_log');\nlet a = 1;",
            "/* function f(a: i64) {} */ let a = 1;",
            "chat(`${n} logs === done`);",
            "let c = 'x';",
            "print(\"it's\" + \"Steve's\");",
        ] {
            assert_eq!(mended(code), code, "{code}");
            assert!(mend(code).mended.is_empty(), "{code}");
        }
        // Rhai that is already right is not changed.
        let rhai = "fn mineLogs() {\n  let n = 0;\n  for i in 0..3 { n += 1; }\n  let m = #{ a: 1 };\n  switch n { 1 => chat(\"one\"), _ => () }\n  if n == 3 { return true; }\n}";
        assert_eq!(mend(rhai), Mended { code: rhai.to_owned(), ..Mended::default() });
    }

    #[test]
    fn unclear_habits_are_reported_with_their_line() {
        let unclear = mend("fn a() {\n  for (let i = 5; i > 0; i--) {}\n}");
        assert_eq!(
            unclear.unmended,
            ["line 2: a C-style `for (…; …; …)` loop is not Rhai: write `for i in 0..n { … }` (or a `while` loop)"]
        );
        assert!(mend("match n {\n 1 => 2 }").unmended[0].contains("`match` is not Rhai"));
        assert!(mend("x\nbot.pathfinder.goto(g);").unmended[0].starts_with("line 2: `bot.` is not Rhai"));
        assert!(mend("for (k in map) {}").unmended[0].contains("for x in list"));
        assert!(mend("println!(\"{} logs\", n);").unmended[0].contains("println!"));
    }

    #[test]
    fn odd_bytes_do_not_panic() {
        for code in ["'", "\"", "`", "/*", "'é'", "'ab", "é'ab'é", "for (", "fn (", "\\'", "'\\''", "{a:", "→ 'x→y'"]
        {
            let _ = mend(code);
        }
        assert_eq!(mended("chat('héllo → wörld');"), "chat(\"héllo → wörld\");");
    }
}
