//! How much a memory matters, 1 (an everyday chore) to 10 (a life-changing event): fixed rules for the kinds of event
//! the bot records itself, the LLM (in batches, with anchored examples) for what people said. Pure.

use super::Subject;

/// The importance given to a memory until the LLM has rated it.
pub const PROVISIONAL: u8 = 3;
/// Memories rated in one LLM call.
pub const BATCH: usize = 12;

/// Ores worth remembering where they are, with how much finding them matters.
const ORES: &[(&str, u8)] = &[
    ("diamond", 8),
    ("emerald", 7),
    ("gold", 5),
    ("iron", 5),
    ("lapis", 4),
    ("redstone", 4),
    ("copper", 3),
    ("coal", 3),
];

/// The rule's importance for `subject`, or `None` when only the LLM can tell (what people said).
pub fn by_rule(subject: &Subject) -> Option<u8> {
    Some(match subject {
        Subject::Heard { .. } => return None,
        Subject::Died => 9,
        Subject::Asked { .. } => 6,
        Subject::Hurt { .. } => 6,
        Subject::Task { ok: false } => 5,
        Subject::Task { ok: true } => 4,
        Subject::Told { .. } => 8,
        Subject::Chest { items } => {
            if items.is_empty() {
                2
            } else {
                4
            }
        }
        Subject::Seen { block, .. } => ORES.iter().find(|(ore, _)| block.contains(ore)).map_or(2, |(_, i)| *i),
        Subject::Met { .. } => 3,
        // An insight is rated from its evidence when it is written (see `insight_importance`).
        Subject::Insight => 6,
    })
}

/// An insight matters as much as the most important memory it rests on, and at least a little more than an
/// everyday chore.
pub fn insight_importance(evidence: &[u8]) -> u8 {
    evidence.iter().copied().max().unwrap_or(PROVISIONAL).clamp(4, 10)
}

/// Reads the LLM's ratings of `count` numbered memories: a JSON array of numbers (`[3, 8, 1]`), or one `N: rating` /
/// `N. rating` line per memory. Ratings outside 1..=10 are clamped. Returns one rating per memory, or why the answer
/// cannot be used.
pub fn parse_ratings(reply: &str, count: usize) -> Result<Vec<u8>, String> {
    let clamp = |n: f64| n.round().clamp(1.0, 10.0) as u8;
    // A JSON array anywhere in the answer (a fence or a sentence around it is fine).
    for (start, _) in reply.match_indices('[') {
        let Some(rest) = reply.get(start..) else { continue };
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Vec<serde_json::Value>>();
        if let Some(Ok(values)) = stream.next() {
            let numbers: Vec<f64> = values
                .iter()
                .filter_map(|v| v.as_f64().or_else(|| v.get("rating").and_then(serde_json::Value::as_f64)))
                .collect();
            if numbers.len() == count && numbers.len() == values.len() {
                return Ok(numbers.into_iter().map(clamp).collect());
            }
            if !numbers.is_empty() {
                return Err(format!("it rates {} memories, not {count}", numbers.len()));
            }
        }
    }
    // `1: 4` / `2. 7` / `3) 2` lines.
    let mut rated = vec![None; count];
    for line in reply.lines() {
        let line = line.trim().trim_start_matches(['-', '*', ' ']);
        let digits: String = line.chars().take_while(char::is_ascii_digit).collect();
        let Ok(n) = digits.parse::<usize>() else { continue };
        let Some(rest) = line.get(digits.len()..) else { continue };
        let rest = rest.trim_start_matches([':', '.', ')', ' ', '=', '-']);
        let value: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
        if let (Some(slot), Ok(value)) = (n.checked_sub(1).and_then(|i| rated.get_mut(i)), value.parse::<f64>()) {
            *slot = Some(clamp(value));
        }
    }
    let found = rated.iter().flatten().count();
    if found == count {
        Ok(rated.into_iter().flatten().collect())
    } else {
        Err(format!("it rates {found} of the {count} memories (answer with a JSON array of {count} numbers)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_rate_the_bots_own_events() {
        assert_eq!(by_rule(&Subject::Died), Some(9));
        assert_eq!(by_rule(&Subject::Seen { block: "deepslate_diamond_ore".into(), count: 2 }), Some(8));
        assert_eq!(by_rule(&Subject::Seen { block: "crafting_table".into(), count: 1 }), Some(2));
        assert_eq!(by_rule(&Subject::Heard { from: "Alex".into() }), None, "what people say is for the LLM");
        assert_eq!(insight_importance(&[2, 3]), 4);
        assert_eq!(insight_importance(&[2, 9]), 9);
    }

    #[test]
    fn ratings_from_arrays_and_lines() {
        assert_eq!(parse_ratings("[3, 8, 1]", 3), Ok(vec![3, 8, 1]));
        assert_eq!(parse_ratings("Ratings:\n```json\n[2, 11, 0.4]\n```", 3), Ok(vec![2, 10, 1]));
        assert_eq!(parse_ratings("1: 4\n2. 7\n3) 2", 3), Ok(vec![4, 7, 2]));
        assert_eq!(parse_ratings("[{\"rating\": 5}, {\"rating\": 6}]", 2), Ok(vec![5, 6]));
        assert!(parse_ratings("[1, 2]", 3).unwrap_err().contains("2 memories, not 3"));
        assert!(parse_ratings("they are all boring", 2).unwrap_err().contains("0 of the 2"));
        assert!(parse_ratings("1: 4", 2).unwrap_err().contains("1 of the 2"));
    }
}
