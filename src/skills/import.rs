//! Reading a skill library from elsewhere for `wayfarer skills import`: a folder of `NAME.rhai` files (each with
//! its `NAME.json` of description and task, or a `///` comment on `fn NAME`), or one JSON file mapping names to
//! `{description, code}` (and optionally `task`). Each skill is read on its own: one unreadable skill is reported and
//! the others still come in.

use std::path::Path;

use super::{NewSkill, store::skill_name};

/// One skill from an import source, or why it cannot be taken (its name, and the reason).
pub type Incoming = Result<NewSkill, (String, String)>;

/// Reads every skill in `source` (a folder or a JSON file), in name order. Fails only when the source itself cannot
/// be read.
pub fn read_source(source: &Path) -> Result<Vec<Incoming>, String> {
    let shown = source.display();
    if source.is_dir() {
        let entries = std::fs::read_dir(source).map_err(|err| format!("cannot read the folder {shown}: {err}"))?;
        let mut names: Vec<String> = entries
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| path.extension().is_some_and(|e| e == "rhai"))
            .filter_map(|path| skill_name(&path))
            .collect();
        names.sort();
        if names.is_empty() {
            return Err(format!("{shown} holds no NAME.rhai skill files"));
        }
        Ok(names.into_iter().map(|name| read_from_folder(source, name)).collect())
    } else {
        let text = std::fs::read_to_string(source).map_err(|err| format!("cannot read {shown}: {err}"))?;
        let value: serde_json::Value = serde_json::from_str(&text).map_err(|err| {
            format!("{shown} is not JSON ({err}); expected {{\"NAME\": {{\"description\": …, \"code\": …}}}}")
        })?;
        let Some(skills) = value.as_object() else {
            return Err(format!(
                "{shown} is not a JSON object of skills; expected {{\"NAME\": {{\"description\": …, \"code\": …}}}}"
            ));
        };
        let mut incoming: Vec<Incoming> = skills.iter().map(|(name, entry)| from_json_entry(name, entry)).collect();
        incoming.sort_by(|a, b| name_of(a).cmp(name_of(b)));
        Ok(incoming)
    }
}

fn name_of(incoming: &Incoming) -> &str {
    match incoming {
        Ok(skill) => &skill.name,
        Err((name, _)) => name,
    }
}

fn read_from_folder(dir: &Path, name: String) -> Incoming {
    let code = std::fs::read_to_string(dir.join(format!("{name}.rhai")))
        .map_err(|err| (name.clone(), format!("cannot read {name}.rhai: {err}")))?;
    let meta_path = dir.join(format!("{name}.json"));
    let (description, task) = match std::fs::read_to_string(&meta_path) {
        Ok(text) => {
            let meta: serde_json::Value =
                serde_json::from_str(&text).map_err(|err| (name.clone(), format!("{name}.json is not JSON: {err}")))?;
            let text_field = |key: &str| meta.get(key).and_then(|v| v.as_str()).unwrap_or_default().to_owned();
            (text_field("description"), text_field("task"))
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => (String::new(), String::new()),
        Err(err) => return Err((name.clone(), format!("cannot read {name}.json: {err}"))),
    };
    let description =
        if description.trim().is_empty() { doc_comment(&code, &name).unwrap_or_default() } else { description };
    if description.trim().is_empty() {
        return Err((
            name.clone(),
            format!("it has no description: give {name}.json a \"description\", or fn {name} a /// comment"),
        ));
    }
    Ok(NewSkill { name, code, description, task })
}

fn from_json_entry(name: &str, entry: &serde_json::Value) -> Incoming {
    let field = |key: &str| entry.get(key).and_then(|v| v.as_str()).map(str::to_owned);
    let Some(code) = field("code").filter(|c| !c.trim().is_empty()) else {
        return Err((name.to_owned(), "it has no \"code\"".to_owned()));
    };
    let description = field("description").filter(|d| !d.trim().is_empty()).or_else(|| doc_comment(&code, name));
    let Some(description) = description else {
        return Err((name.to_owned(), "it has no \"description\" (nor a /// comment on its fn)".to_owned()));
    };
    Ok(NewSkill { name: name.to_owned(), code, description, task: field("task").unwrap_or_default() })
}

/// The `///` comment on `fn name` in `code`, joined into one line, if the code compiles and has one.
pub fn doc_comment(code: &str, name: &str) -> Option<String> {
    let ast = crate::script::compile(code, &[]).ok()?;
    let function = ast.iter_functions().find(|f| f.name == name)?;
    let doc: Vec<String> = function
        .comments
        .iter()
        .map(|line| line.trim_start_matches("///").trim().to_owned())
        .filter(|line| !line.is_empty())
        .collect();
    (!doc.is_empty()).then(|| doc.join(" "))
}
