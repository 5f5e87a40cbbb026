//! Small pieces of text shaping the planners and the code writers share: a leaf, so any of them may use it.

/// `text` with its first letter upper case.
pub(super) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// `code` indented one level (four spaces), to sit inside a function body.
pub(super) fn indent(code: &str) -> String {
    code.lines().map(|l| format!("    {l}")).collect::<Vec<_>>().join("\n")
}
