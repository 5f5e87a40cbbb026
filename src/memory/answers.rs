//! The LLM's answers for the memory stream, read: importance ratings of numbered memories, reflection's few most
//! salient questions about recent memories, and the insights it draws from the memories recalled for them, each
//! citing the numbered statements it rests on (`Alex trusts the bot with iron (because of 1, 5, 3)`). Pure (serde_json
//! only: the fuzz harness compiles this file alone); the agent asks and the stream records.

/// Questions asked per reflection (generative agents ask three).
pub const QUESTIONS: usize = 3;
/// Insights kept per reflection.
pub const INSIGHTS: usize = 5;
/// Recent memories the questions are asked about.
pub const RECENT: usize = 60;
/// Memories recalled for each question.
pub const PER_QUESTION: usize = 6;

/// Candidate starts of a JSON array tried before giving up, as `agent::extract` bounds its own: enough for any prose
/// around one array, few enough that a reply of nothing but brackets costs milliseconds, not seconds.
const MAX_ARRAY_STARTS: usize = 256;

/// `reply` from each of its first [`MAX_ARRAY_STARTS`] `[` on, for a JSON array read from there.
fn array_starts(reply: &str) -> impl Iterator<Item = &str> {
    reply.match_indices('[').take(MAX_ARRAY_STARTS).map(|(start, _)| &reply[start..])
}

/// Reads the LLM's ratings of `count` numbered memories: a JSON array of numbers (`[3, 8, 1]`), or one `N: rating` /
/// `N. rating` line per memory. Ratings outside 1..=10 are clamped. Returns one rating per memory, or why the answer
/// cannot be used.
pub fn parse_ratings(reply: &str, count: usize) -> Result<Vec<u8>, String> {
    let clamp = |n: f64| n.round().clamp(1.0, 10.0) as u8;
    // A JSON array anywhere in the answer (a fence or a sentence around it is fine).
    for rest in array_starts(reply) {
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

/// The questions in an answer: a JSON array of strings, or one question per line (numbers and bullets dropped).
pub fn parse_questions(reply: &str) -> Vec<String> {
    for rest in array_starts(reply) {
        if let Some(Ok(list)) = serde_json::Deserializer::from_str(rest).into_iter::<Vec<String>>().next() {
            let list: Vec<String> = list.into_iter().map(|q| q.trim().to_owned()).filter(|q| !q.is_empty()).collect();
            if !list.is_empty() {
                return list.into_iter().take(QUESTIONS).collect();
            }
        }
    }
    reply
        .lines()
        .map(strip_numbering)
        .filter(|line| line.ends_with('?') || line.ends_with('？'))
        .map(str::to_owned)
        .take(QUESTIONS)
        .collect()
}

/// One insight and the statement numbers (1-based, as shown) it cites.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Insight {
    pub text: String,
    pub cites: Vec<usize>,
}

/// The insights in an answer: lines ending in a parenthesis of statement numbers (`(because of 1, 5, 3)`, in any
/// language), numbers outside 1..=`statements` dropped; a line citing nothing is no insight. At most [`INSIGHTS`].
pub fn parse_insights(reply: &str, statements: usize) -> Vec<Insight> {
    let mut insights = Vec::new();
    for line in reply.lines() {
        let line = strip_numbering(line);
        let Some(open) = line.rfind('(') else { continue };
        let (Some(text), Some(cited)) = (line.get(..open), line.get(open + 1..)) else { continue };
        let cited = cited.trim_end_matches(['.', ' ', '。']).trim_end_matches(')');
        let cites: Vec<usize> = cited
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse::<usize>().ok())
            .filter(|n| (1..=statements).contains(n))
            .fold(Vec::new(), |mut seen, n| {
                if !seen.contains(&n) {
                    seen.push(n);
                }
                seen
            });
        let text = text.trim().trim_end_matches([',', ';', ':']).trim();
        if cites.is_empty() || text.chars().count() < 4 {
            continue;
        }
        insights.push(Insight { text: text.to_owned(), cites });
        if insights.len() == INSIGHTS {
            break;
        }
    }
    insights
}

/// A line without its list marker: `1. `, `2) `, `- `, `* `, `Question 3:`.
fn strip_numbering(line: &str) -> &str {
    let line = line.trim().trim_start_matches(['-', '*', '•']).trim_start();
    let line = line.strip_prefix("Question").or_else(|| line.strip_prefix("Insight")).unwrap_or(line).trim_start();
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    match line.get(digits..) {
        Some(rest) if digits > 0 && rest.starts_with(['.', ')', ':']) => rest.get(1..).unwrap_or("").trim(),
        _ => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn questions_from_lists_and_arrays() {
        let lines = "Here they are:\n1. What does Alex want the bot to build?\n2) Where is iron found?\n- Is the cave safe?\n- Extra?";
        assert_eq!(
            parse_questions(lines),
            ["What does Alex want the bot to build?", "Where is iron found?", "Is the cave safe?"]
        );
        assert_eq!(parse_questions("```json\n[\"Why did I die?\", \" \"]\n```"), ["Why did I die?"]);
        assert!(parse_questions("nothing to ask").is_empty());
    }

    #[test]
    fn insights_cite_their_statements() {
        let reply = "1. Alex relies on the bot for iron (because of 1, 5, 3)\n\
                     2. The cave at 40 30 -12 is dangerous (because of 2)\n\
                     3. El bot necesita carbón (porque 4, 4, 9).\n\
                     4. An insight with no evidence\n\
                     5. Zombies come at night (because of 0, 12)";
        let insights = parse_insights(reply, 6);
        assert_eq!(
            insights,
            [
                Insight { text: "Alex relies on the bot for iron".into(), cites: vec![1, 5, 3] },
                Insight { text: "The cave at 40 30 -12 is dangerous".into(), cites: vec![2] },
                Insight { text: "El bot necesita carbón".into(), cites: vec![4] },
            ]
        );
        let many = (1..=8).map(|i| format!("insight number {i} (because of {i})")).collect::<Vec<_>>().join("\n");
        assert_eq!(parse_insights(&many, 8).len(), INSIGHTS);
    }
}
