//! Getting what an LLM reply holds out of its prose: the fenced code (compiled, with its main function), the
//! `Description:` line, and the first JSON value of the expected shape.
//!
//! Replies are outside text: any language, any length, any bytes. Nothing here slices text at a byte index it did not
//! find itself, so no reply can make it panic; every failure is a message for the next prompt, saying what to change.

use rhai::AST;
use serde::de::DeserializeOwned;

use super::{
    check::{self, Known},
    habits,
};
use crate::script::{self, CompileError};

/// A reply's program: the code, compiled, and the function to call.
#[derive(Debug, Clone)]
pub struct Program {
    pub code: String,
    pub ast: AST,
    /// The last function the code defines, which takes no parameters: the one to run (and the skill's name).
    pub main: String,
    /// Habits of other languages rewritten in it ([`habits`]), and names read as the game's
    /// ([`check::mend_names`]).
    pub mended: Vec<String>,
}

/// Fenced blocks tagged `rhai`, `rust`, `js`/`javascript` or untagged are code; the rest of the reply is prose.
const CODE_TAGS: [&str; 5] = ["", "rhai", "rust", "js", "javascript"];

/// All code blocks of a reply, joined.
pub fn code_blocks(reply: &str) -> Option<String> {
    let mut blocks = Vec::new();
    let mut rest = reply;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let (tag, body) = after.split_once('\n').unwrap_or((after, ""));
        let Some(close) = body.find("```") else { break };
        // The tag's first word: small models write ```rhai code or ```rhai title.
        let tag = tag.split_whitespace().next().unwrap_or_default().to_lowercase();
        if CODE_TAGS.contains(&tag.as_str()) && !body[..close].trim().is_empty() {
            blocks.push(body[..close].trim_end().to_owned());
        }
        rest = &body[close + 3..];
    }
    (!blocks.is_empty()).then(|| blocks.join("\n\n"))
}

/// Why a reply's program is not run: what to tell the model, and the code it wrote (mended) when it wrote some.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfit {
    pub advice: String,
    pub code: Option<String>,
}

impl std::fmt::Display for Unfit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.advice)
    }
}

/// The program in `reply`, or why there is none. Its habits from other languages are mended first ([`habits`]),
/// and every call it makes must resolve against `known` ([`check`]) with the right number and kinds of values:
/// code that passes runs in the world, code that does not goes back to the model.
pub fn program(reply: &str, known: &Known) -> Result<Program, Unfit> {
    let code = code_blocks(reply).ok_or_else(|| Unfit {
        advice: "Your reply had no code block. Answer with exactly one ```rhai block that defines the function."
            .to_owned(),
        code: None,
    })?;
    let mended = habits::mend(&code);
    // JavaScript's habit of ending a line without `;`: the parser says where one is missing, and it is put there.
    let (code, semicolons) = missing_semicolons(mended.code);
    let also =
        if mended.unmended.is_empty() { String::new() } else { format!("\nAlso:\n- {}", mended.unmended.join("\n- ")) };
    let unfit = |advice: String| Unfit { advice, code: Some(code.clone()) };
    let ast = script::compile(&code, &[]).map_err(|err| match err {
        CompileError::Eval { .. } => {
            unfit(format!("The code does not compile: {err}. Call the functions directly.{also}"))
        }
        CompileError::Syntax { .. } => unfit(format!("The code does not compile: {err}.{also}")),
    })?;
    // The AST does not keep definition order; the source does.
    let params_of = |name: &str| ast.iter_functions().find(|f| f.name == name).map(|f| f.params.len());
    let last = defined_in_order(&code).into_iter().rev().find_map(|name| Some((params_of(&name)?, name)));
    let Some((params, main)) = last else {
        return Err(unfit(
            "The code defines no function. Write one `fn name() { ... }` that does the task; it is called with no \
             arguments."
                .to_owned(),
        ));
    };
    if params > 0 {
        return Err(unfit(format!(
            "The last function, {main}, takes {params} parameter(s), but it is called with none. Put the function that \
             does the task last and give it no parameters."
        )));
    }
    // What the code plainly meant is read so, each mend kept when the code still compiles after it: names the game
    // does not have whose meaning is plain from what the bot sees, a block's position passed where its name is
    // wanted, and the count `1` passed to a skill that takes none.
    type Mend = fn(&str, &rhai::AST, &Known) -> Option<(String, Vec<String>)>;
    let (mut code, mut ast, mut mended_names) = (code, ast, Vec::new());
    for mend in [check::mend_names as Mend, check::mend_found_positions, check::mend_counts] {
        if let Some((mended, mut said)) = mend(&code, &ast, known)
            && let Ok(mended_ast) = script::compile(&mended, &[])
        {
            (code, ast) = (mended, mended_ast);
            mended_names.append(&mut said);
        }
    }
    let unfit = |advice: String| Unfit { advice, code: Some(code.clone()) };
    let misses = check::calls(&ast, known);
    if !misses.is_empty() {
        return Err(unfit(format!(
            "The code was not run: {}\n- {}\nFix {} and answer with the whole code again.{also}",
            if misses.len() == 1 { "one call is wrong:" } else { "some calls are wrong:" },
            misses.join("\n- "),
            if misses.len() == 1 { "it" } else { "them" },
        )));
    }
    let mut all_mended: Vec<String> = mended.mended.iter().map(|m| (*m).to_owned()).collect();
    if !semicolons.is_empty() {
        let lines: Vec<String> = semicolons.iter().map(usize::to_string).collect();
        all_mended.push(format!("`;` added where a statement ended (line {})", lines.join(", ")));
    }
    all_mended.append(&mut mended_names);
    Ok(Program { code, ast, main, mended: all_mended })
}

/// How many missing `;` one answer may have put in.
const MAX_SEMICOLONS: usize = 40;

/// `code` with a `;` put at the end of each line the parser says a statement ends on without one (`mineBlock("oak_log",
/// 3)` followed by another call on the next line), and the lines (counted from 1) that got one. Only the end of a
/// line of code is touched: a statement followed by another on the same line, or by a comment, is left for the model.
fn missing_semicolons(mut code: String) -> (String, Vec<usize>) {
    let mut added = Vec::new();
    while added.len() < MAX_SEMICOLONS {
        let Err(CompileError::Syntax { line: Some(line), message }) = script::compile(&code, &[]) else { break };
        if !message.contains("Expecting ';' to terminate this statement") {
            break;
        }
        let lines: Vec<&str> = code.split('\n').collect();
        // The statement that needs it ends on the last line of code before the one the parser stopped at.
        let Some(end) = lines
            .iter()
            .take(line.saturating_sub(1))
            .rposition(|l| !l.trim().is_empty() && !l.trim_start().starts_with("//"))
        else {
            break;
        };
        let tail = lines[end].trim_end();
        if tail.contains("//") || tail.ends_with([';', '{', '}', ',']) || added.contains(&(end + 1)) {
            break;
        }
        let mut mended: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
        mended[end] = format!("{tail};");
        code = mended.join("\n");
        added.push(end + 1);
    }
    added.sort_unstable();
    (code, added)
}

const LABEL: &str = "description:";

/// The `Description: …` line of a reply (outside its code), if it wrote one.
pub fn description(reply: &str) -> Option<String> {
    let mut in_code = false;
    for line in reply.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let line = line.trim();
        // `get` refuses a cut inside a character (a reply in another language can put one at byte 12).
        if let (false, Some(head), Some(rest)) = (in_code, line.get(..LABEL.len()), line.get(LABEL.len()..))
            && head.eq_ignore_ascii_case(LABEL)
        {
            let text = rest.trim();
            return (!text.is_empty()).then(|| text.to_owned());
        }
    }
    None
}

/// Which bracket a JSON value starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Json {
    Object,
    Array,
}

/// Candidate starts tried before giving up: enough for any prose around one value, few enough that a megabyte of
/// brackets costs milliseconds.
const MAX_JSON_STARTS: usize = 256;

/// The first complete JSON value of `T`'s shape anywhere in `reply`: each `{` (or `[`) is a candidate start, parsed as
/// far as one value goes (so prose, fences and bracketed remarks before or after it do not matter). When no
/// candidate fits, the error says why the first well-formed one did not.
pub fn json_value<T: DeserializeOwned>(reply: &str, kind: Json) -> Result<T, String> {
    json_first(reply, kind, Ok)
}

/// As [`json_value`], taking the first candidate that `accept` also accepts (so an empty `[]` or a quoted example
/// before the real answer is passed over). When none is accepted, the error is the first accepted-shape candidate's
/// complaint, else the first shape error.
pub fn json_first<T: DeserializeOwned, U, E: From<String>>(
    reply: &str,
    kind: Json,
    accept: impl Fn(T) -> Result<U, E>,
) -> Result<U, E> {
    let (open, what) = match kind {
        Json::Object => ('{', "object"),
        Json::Array => ('[', "array"),
    };
    let (mut refused, mut shape_error) = (None, None);
    for (at, _) in reply.match_indices(open).take(MAX_JSON_STARTS) {
        let mut values = serde_json::Deserializer::from_str(&reply[at..]).into_iter::<serde_json::Value>();
        let Some(Ok(value)) = values.next() else { continue };
        match serde_json::from_value::<T>(value) {
            Ok(parsed) => match accept(parsed) {
                Ok(accepted) => return Ok(accepted),
                Err(why) => {
                    refused.get_or_insert(why);
                }
            },
            Err(err) => {
                shape_error.get_or_insert(err);
            }
        }
    }
    Err(match (refused, shape_error) {
        (Some(why), _) => why,
        (None, Some(err)) => format!("the JSON {what} does not fit ({err})").into(),
        (None, None) => format!("no JSON {what} in the reply").into(),
    })
}

/// Names after `fn` at the start of a line (after `private`), in source order.
fn defined_in_order(code: &str) -> Vec<String> {
    code.lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let rest = line.strip_prefix("private ").unwrap_or(line).strip_prefix("fn ")?;
            let name: String =
                rest.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile(reply: &str) -> Result<Program, String> {
        program(reply, &super::super::act::known(None)).map_err(|unfit| unfit.advice)
    }

    #[test]
    fn takes_the_code_and_the_last_function() {
        let reply = "Here is the plan.\n```rhai\nfn helper(n) { n }\n```\nand\n```\nfn mineTwoLogs() {\n  helper(2)\n}\n```\nDone.";
        let program = compile(reply).unwrap();
        assert_eq!(program.main, "mineTwoLogs");
        assert_eq!(program.code, "fn helper(n) { n }\n\nfn mineTwoLogs() {\n  helper(2)\n}");
        let fenced_json = "```json\n{\"a\": 1}\n```\n```rust\nfn walk() {}\n```";
        assert_eq!(compile(fenced_json).unwrap().main, "walk");
        // A tag with more words after the language, as small models write.
        assert_eq!(compile("```rhai code\nfn mineLogs() {}\n```").unwrap().main, "mineLogs");
        assert_eq!(compile("``` Rhai  \nfn mineLogs() {}\n```").unwrap().main, "mineLogs");
        assert!(compile("```json code\nfn mineLogs() {}\n```").is_err());
    }

    #[test]
    fn a_count_given_to_a_skill_that_takes_none_runs_without_it() {
        let library =
            crate::script::compile("fn craftWoodenPickaxe() { craftItem(\"wooden_pickaxe\", 1); }", &[]).unwrap();
        let known = super::super::act::known(Some(&library));
        let reply =
            "```rhai\nfn craftSpruceButton() {\n  craftWoodenPickaxe(1);\n  craftItem(\"spruce_button\", 1);\n}\n```";
        let program = program(reply, &known).unwrap_or_else(|unfit| panic!("{}", unfit.advice));
        assert!(program.code.contains("craftWoodenPickaxe();"), "{}", program.code);
        assert!(
            program.mended.contains(&"`craftWoodenPickaxe(1)` → `craftWoodenPickaxe()`: it takes no values".to_owned())
        );
        // Two is not plainly one pickaxe: sent back.
        let two = reply.replace("craftWoodenPickaxe(1)", "craftWoodenPickaxe(2)");
        let advice = super::program(&two, &known).err().unwrap().advice;
        assert!(advice.contains("`craftWoodenPickaxe` takes no values; you passed one value"), "{advice}");
    }

    #[test]
    fn finds_the_description_line_outside_code() {
        let reply = "Plan: x\nDescription: Mines two logs.\n```rhai\n// Description: not this\nfn a() {}\n```";
        assert_eq!(description(reply).as_deref(), Some("Mines two logs."));
        assert_eq!(description("```rhai\nDescription: inside\n```"), None);
        assert_eq!(description("Description:   "), None);
    }

    #[test]
    fn each_bad_reply_gets_its_own_advice() {
        assert!(compile("I would mine some logs.").unwrap_err().contains("no code block"));
        assert!(compile("```json\n{}\n```").unwrap_err().contains("no code block"));
        let err = compile("```rhai\nfn a() {\n  let = 1;\n}\n```").unwrap_err();
        assert!(err.starts_with("The code does not compile: line 2:"), "{err}");
        assert!(compile("```rhai\nmineBlock(\"oak_log\", 1);\n```").unwrap_err().contains("defines no function"));
        // Lines that end without `;` get one where the parser says a statement ended.
        let program = compile(
            "```rhai\nfn craftPlanks() {\n    mineBlock(\"spruce_log\", 3)\n\n    craftItem(\"spruce_planks\", 4)\n    \
             let n = inventoryCount(\"spruce_planks\")\n    n\n}\n```",
        )
        .unwrap();
        assert_eq!(
            program.code,
            "fn craftPlanks() {\n    mineBlock(\"spruce_log\", 3);\n\n    craftItem(\"spruce_planks\", 4);\n    let n = \
             inventoryCount(\"spruce_planks\");\n    n\n}"
        );
        assert_eq!(program.mended, ["`;` added where a statement ended (line 2, 4, 5)"]);
        // Two statements on one line, or a comment after one, are the model's to mend.
        let err = compile("```rhai\nfn a() {\n    chat(\"a\") // hi\n    chat(\"b\")\n}\n```").unwrap_err();
        assert!(err.contains("Expecting ';'"), "{err}");
        assert!(compile("```rhai\nfn a() {\n    chat(\"a\") chat(\"b\")\n}\n```").is_err());
        assert!(compile("```rhai\nfn mine(n) { n }\n```").unwrap_err().contains("takes 1 parameter"));
        assert!(compile("```rhai\nfn mineBlock() { 1 }\n```").unwrap_err().contains("built-in"));
        assert!(compile("```rhai\nfn unfinished() {\n```").unwrap_err().contains("does not compile"));
        let err = compile("```rhai\nfn sneaky() {\n  eval(\"mineBlock(`dirt`, 1)\")\n}\n```").unwrap_err();
        assert_eq!(
            err,
            "The code does not compile: line 2: `eval` is not allowed: write the code itself, not a string to evaluate. \
             Call the functions directly."
        );
    }

    /// A local model answering in another language wrote `Explain: Mine wood → craft planks`; the parser sliced the line
    /// at byte 12, inside `→`, and the panic ended the task.
    #[test]
    fn a_multibyte_character_at_byte_twelve_is_no_panic() {
        assert_eq!(
            description("Explain: Mine wood → craft planks\nDescription: Holz → Bretter."),
            Some("Holz → Bretter.".into())
        );
        assert_eq!(description("Explain: Mine wood → craft"), None);
        assert_eq!(description("Descripción: corta madera"), None);
        assert_eq!(description("DESCRIPTION:Mines."), Some("Mines.".into()));
        for line in ["ééééééé", "→→→→", "description", "描述：挖木头然后做木板", "\u{202e}Description: x"]
        {
            let _ = description(line);
        }
    }

    #[derive(Debug, serde::Deserialize, PartialEq)]
    struct Step {
        task: String,
    }

    /// A plan in prose with a bracketed remark before or after the JSON was never found: the span from the first `[`
    /// to the last `]` is not JSON. The first complete value of the right shape is.
    #[test]
    fn json_is_found_among_brackets_and_prose() {
        let plan = "Plan [draft]:\n```json\n[{\"task\": \"Mine 2 oak_log\"}]\n```\n[Note: logs first]";
        let steps: Vec<Step> = json_value(plan, Json::Array).unwrap();
        assert_eq!(steps, [Step { task: "Mine 2 oak_log".into() }]);
        let remark_first = "[1] I think: {\"task\": \"Craft 4 planks\"} {\"task\": \"later\"}";
        assert_eq!(json_value::<Step>(remark_first, Json::Object).unwrap().task, "Craft 4 planks");
        let err = json_value::<Vec<Step>>("Here: [1, 2] and [\"a\"]", Json::Array).unwrap_err();
        assert!(err.starts_with("the JSON array does not fit (invalid type: integer `1`"), "{err}");
        assert_eq!(json_value::<Step>("no braces", Json::Object).unwrap_err(), "no JSON object in the reply");
        assert_eq!(
            json_value::<Step>("{\"task\": \"unclosed", Json::Object).unwrap_err(),
            "no JSON object in the reply"
        );
    }
}
