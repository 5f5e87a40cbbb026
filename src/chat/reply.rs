//! Fitting replies into chat: Minecraft rejects chat messages longer than 256 characters.

/// The longest chat message a vanilla server accepts.
pub const MAX_CHAT_LEN: usize = 256;

/// Splits `text` into chat-sized lines of at most `max` characters (not bytes), breaking at spaces when possible.
/// Line breaks in `text` always start a new message; empty lines are dropped.
pub fn split_for_chat(text: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut out = Vec::new();
    for line in text.lines() {
        let mut rest = line.trim();
        // Each pass reads at most `max` characters ahead, so a megabyte of text costs one pass over it.
        while let Some((cut, _)) = rest.char_indices().nth(max) {
            let at = rest[..cut].rfind(' ').filter(|&i| i > 0).unwrap_or(cut);
            out.push(rest[..at].trim_end().to_owned());
            rest = rest[at..].trim_start();
        }
        if !rest.is_empty() {
            out.push(rest.to_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_one_line() {
        assert_eq!(split_for_chat("hello", 256), ["hello"]);
        assert!(split_for_chat("  \n ", 256).is_empty());
    }

    #[test]
    fn long_text_breaks_at_spaces_and_fits() {
        let text = "word ".repeat(100);
        let lines = split_for_chat(&text, 256);
        assert!(lines.len() == 2, "{lines:?}");
        assert!(lines.iter().all(|l| l.chars().count() <= 256 && !l.ends_with(' ')));
        assert_eq!(lines.join(" "), text.trim());
    }

    #[test]
    fn a_megabyte_is_split_in_one_pass() {
        let started = std::time::Instant::now();
        let lines = split_for_chat(&"x".repeat(1 << 20), 256);
        assert_eq!(lines.len(), (1 << 20) / 256);
        assert!(started.elapsed() < std::time::Duration::from_secs(2), "{:?}", started.elapsed());
    }

    #[test]
    fn unbroken_and_multibyte_text_is_cut_by_characters() {
        let text = "é".repeat(600);
        let lines = split_for_chat(&text, 256);
        assert_eq!(lines.iter().map(|l| l.chars().count()).collect::<Vec<_>>(), [256, 256, 88]);
    }
}
