//! Getting a runnable program out of an LLM reply: the fenced code, compiled, and its main function.
//!
//! Every failure is a message for the next attempt's prompt, saying exactly what to change.

use rhai::{AST, Engine};

/// A reply's program: the code, compiled, and the function to call.
#[derive(Debug, Clone)]
pub struct Program {
    pub code: String,
    pub ast: AST,
    /// The last function the code defines, which takes no parameters: the one to run (and the skill's name).
    pub main: String,
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
        if CODE_TAGS.contains(&tag.trim().to_lowercase().as_str()) && !body[..close].trim().is_empty() {
            blocks.push(body[..close].trim_end().to_owned());
        }
        rest = &body[close + 3..];
    }
    (!blocks.is_empty()).then(|| blocks.join("\n\n"))
}

/// The program in `reply`, or why there is none.
pub fn program(reply: &str, compiler: &Engine, reserved: &[&str]) -> Result<Program, String> {
    let code = code_blocks(reply).ok_or_else(|| {
        "Your reply had no code block. Answer with exactly one ```rhai block that defines the function.".to_owned()
    })?;
    let ast = compiler.compile(&code).map_err(|err| match err.1.line() {
        Some(line) => format!("The code does not compile: line {line}: {}.", err.0),
        None => format!("The code does not compile: {}.", err.0),
    })?;
    // The AST does not keep definition order; the source does.
    let params_of = |name: &str| ast.iter_functions().find(|f| f.name == name).map(|f| f.params.len());
    let last = defined_in_order(&code).into_iter().rev().find_map(|name| Some((params_of(&name)?, name)));
    let Some((params, main)) = last else {
        return Err("The code defines no function. Write one `fn name() { ... }` that does the task; it is called \
                    with no arguments."
            .to_owned());
    };
    if params > 0 {
        return Err(format!(
            "The last function, {main}, takes {params} parameter(s), but it is called with none. Put the function that \
             does the task last and give it no parameters."
        ));
    }
    if reserved.contains(&main.as_str()) {
        return Err(format!("{main} is the name of a built-in function; call your function something else."));
    }
    Ok(Program { code, ast, main })
}

/// The `Description: …` line of a reply (outside its code), if it wrote one.
pub fn description(reply: &str) -> Option<String> {
    let mut in_code = false;
    for line in reply.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        let line = line.trim();
        if !in_code && line.len() > 12 && line[..12].eq_ignore_ascii_case("description:") {
            let text = line[12..].trim();
            return (!text.is_empty()).then(|| text.to_owned());
        }
    }
    None
}

/// Names after `fn` at the start of a line (after `private`), in source order.
fn defined_in_order(code: &str) -> Vec<String> {
    code.lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let rest = line.strip_prefix("private ").unwrap_or(line).strip_prefix("fn ")?;
            let name: String = rest.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            (!name.is_empty()).then_some(name)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile(reply: &str) -> Result<Program, String> {
        program(reply, &Engine::new_raw(), &["mineBlock"])
    }

    #[test]
    fn takes_the_code_and_the_last_function() {
        let reply = "Here is the plan.\n```rhai\nfn helper(n) { n }\n```\nand\n```\nfn mineTwoLogs() {\n  helper(2)\n}\n```\nDone.";
        let program = compile(reply).unwrap();
        assert_eq!(program.main, "mineTwoLogs");
        assert_eq!(program.code, "fn helper(n) { n }\n\nfn mineTwoLogs() {\n  helper(2)\n}");
        let fenced_json = "```json\n{\"a\": 1}\n```\n```rust\nfn walk() {}\n```";
        assert_eq!(compile(fenced_json).unwrap().main, "walk");
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
        assert!(compile("```rhai\nfn mine(n) { n }\n```").unwrap_err().contains("takes 1 parameter"));
        assert!(compile("```rhai\nfn mineBlock() { 1 }\n```").unwrap_err().contains("built-in"));
        assert!(compile("```rhai\nfn unfinished() {\n```").unwrap_err().contains("does not compile"));
    }
}
