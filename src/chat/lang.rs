//! Which language a line of chat is written in: English (read as it is), one of the languages the bots answer in, or
//! another one (read through the LLM, answered in English).
//!
//! Chat lines are short (`baue eine Werkbank`), too short for letter statistics, so the reading goes by what short
//! lines do carry: the script (Han characters), letters only one language uses (`đ`, `ư`, `ß`, `ñ`), and the
//! words players use for goals (`une`, `eine`, `consigue`, `pioche`). Item ids and numbers say nothing. English wins
//! only when its words outnumber every other language's; a line with no word any list knows is [`Reading::Unclear`],
//! and is read as English, as before.

use crate::config::Lang;

/// What a line of chat is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// English, or one of the languages the bots answer in.
    Known(Lang),
    /// Not English, and not a language the bots answer in (Japanese, Portuguese, Russian…).
    Other,
    /// Nothing to go by: item ids, numbers, names.
    Unclear,
}

impl Reading {
    /// The language to answer its writer in, when the line says.
    pub fn answer_in(self) -> Option<Lang> {
        match self {
            Reading::Known(lang) => Some(lang),
            Reading::Other | Reading::Unclear => None,
        }
    }
}

/// Words players use in goals and questions, per language. A word in two lists counts for both.
const ENGLISH: &[&str] = &[
    "a", "an", "the", "of", "to", "and", "with", "for", "from", "in", "on", "at", "into", "onto", "some", "me", "my",
    "you", "your", "i", "it", "is", "are", "was", "where", "what", "which", "how", "did", "do", "does", "have", "has",
    "get", "got", "make", "craft", "build", "mine", "dig", "chop", "kill", "hunt", "find", "go", "come", "bring",
    "give", "smelt", "cook", "collect", "gather", "place", "put", "store", "take", "use", "see", "saw", "seen",
    "pickaxe", "pick", "axe", "sword", "shovel", "hoe", "wooden", "wood", "stone", "iron", "gold", "golden", "diamond",
    "table", "crafting", "furnace", "chest", "log", "logs", "plank", "planks", "stick", "sticks", "coal", "ore",
    "ores", "ingot", "ingots", "torch", "torches", "wool", "sheep", "pig", "pigs", "cow", "cows", "chicken", "zombie",
    "bed", "door", "house", "hut", "wall", "floor", "hole", "tower", "oak", "birch", "spruce", "dirt", "sand", "glass",
    "bread", "food", "water", "bucket", "fish", "near", "next", "here", "there", "two", "three", "four", "five", "one",
    "ten", "many", "more", "line", "row", "skill", "skills", "remember", "base", "home", "village", "cave", "tree",
    "trees", "block", "blocks", "please", "can", "let", "that", "this", "up", "down",
];
const FRENCH: &[&str] = &[
    "un",
    "une",
    "le",
    "la",
    "les",
    "des",
    "de",
    "du",
    "au",
    "aux",
    "et",
    "en",
    "pour",
    "avec",
    "sur",
    "dans",
    "moi",
    "mon",
    "ma",
    "mes",
    "je",
    "tu",
    "il",
    "nous",
    "vous",
    "est",
    "sont",
    "où",
    "quoi",
    "quel",
    "quelle",
    "as",
    "avons",
    "fabrique",
    "fabriquer",
    "fabriques",
    "construis",
    "construire",
    "fais",
    "faire",
    "fait",
    "mine",
    "miner",
    "creuse",
    "creuser",
    "tue",
    "tuer",
    "trouve",
    "trouver",
    "va",
    "aller",
    "viens",
    "donne",
    "donner",
    "apporte",
    "récupère",
    "récolte",
    "ramasse",
    "obtiens",
    "obtenir",
    "cuis",
    "fonds",
    "pose",
    "poser",
    "range",
    "pioche",
    "hache",
    "épée",
    "pelle",
    "houe",
    "bois",
    "pierre",
    "fer",
    "or",
    "diamant",
    "établi",
    "four",
    "coffre",
    "bûche",
    "bûches",
    "planche",
    "planches",
    "bâton",
    "bâtons",
    "charbon",
    "minerai",
    "lingot",
    "lingots",
    "torche",
    "torches",
    "laine",
    "mouton",
    "moutons",
    "cochon",
    "cochons",
    "vache",
    "poulet",
    "lit",
    "porte",
    "maison",
    "mur",
    "trou",
    "chêne",
    "bouleau",
    "sapin",
    "terre",
    "sable",
    "verre",
    "pain",
    "eau",
    "seau",
    "près",
    "ici",
    "deux",
    "trois",
    "quatre",
    "cinq",
    "compétence",
    "compétences",
    "souviens",
    "rappelle",
    "vu",
    "arbre",
    "arbres",
    "bloc",
    "blocs",
    "s'il",
    "plaît",
    "ligne",
    "rangée",
    "pavé",
    "pavés",
];
const GERMAN: &[&str] = &[
    "ein",
    "eine",
    "einen",
    "einem",
    "einer",
    "der",
    "die",
    "das",
    "den",
    "dem",
    "des",
    "und",
    "mit",
    "für",
    "von",
    "zu",
    "zum",
    "zur",
    "auf",
    "aus",
    "im",
    "mir",
    "mich",
    "mein",
    "meine",
    "ich",
    "du",
    "wir",
    "ihr",
    "ist",
    "sind",
    "wo",
    "was",
    "welche",
    "hast",
    "habe",
    "hat",
    "bau",
    "baue",
    "bauen",
    "hol",
    "hole",
    "holen",
    "mach",
    "mache",
    "machen",
    "stelle",
    "stell",
    "herstellen",
    "grab",
    "grabe",
    "graben",
    "bau",
    "abbauen",
    "töte",
    "töten",
    "finde",
    "finden",
    "geh",
    "gehe",
    "komm",
    "gib",
    "bring",
    "bringe",
    "sammle",
    "sammeln",
    "schmelze",
    "brate",
    "platziere",
    "lege",
    "spitzhacke",
    "holzspitzhacke",
    "steinspitzhacke",
    "eisenspitzhacke",
    "axt",
    "schwert",
    "schaufel",
    "hacke",
    "holz",
    "stein",
    "eisen",
    "gold",
    "diamant",
    "werkbank",
    "ofen",
    "truhe",
    "kiste",
    "baumstamm",
    "baumstämme",
    "stamm",
    "stämme",
    "brett",
    "bretter",
    "holzbretter",
    "stock",
    "stöcke",
    "kohle",
    "erz",
    "barren",
    "eisenbarren",
    "fackel",
    "fackeln",
    "wolle",
    "schaf",
    "schafe",
    "schwein",
    "schweine",
    "kuh",
    "huhn",
    "bett",
    "tür",
    "haus",
    "hütte",
    "mauer",
    "wand",
    "loch",
    "eiche",
    "eichenholz",
    "birke",
    "fichte",
    "erde",
    "sand",
    "glas",
    "brot",
    "wasser",
    "eimer",
    "hier",
    "dort",
    "zwei",
    "drei",
    "vier",
    "fünf",
    "fähigkeit",
    "fähigkeiten",
    "erinnerst",
    "gesehen",
    "baum",
    "bäume",
    "block",
    "blöcke",
    "bitte",
    "reihe",
    "bruchstein",
];
const SPANISH: &[&str] = &[
    "un",
    "una",
    "unos",
    "unas",
    "el",
    "la",
    "los",
    "las",
    "de",
    "del",
    "al",
    "y",
    "con",
    "para",
    "por",
    "en",
    "me",
    "mi",
    "mis",
    "yo",
    "tú",
    "nosotros",
    "es",
    "está",
    "están",
    "son",
    "dónde",
    "donde",
    "qué",
    "cuál",
    "has",
    "he",
    "consigue",
    "consigueme",
    "consígueme",
    "conseguir",
    "obtén",
    "haz",
    "hazme",
    "hacer",
    "construye",
    "construir",
    "fabrica",
    "fabricar",
    "craftea",
    "crea",
    "crear",
    "mina",
    "minar",
    "cava",
    "cavar",
    "excava",
    "mata",
    "matar",
    "busca",
    "buscar",
    "encuentra",
    "encontrar",
    "ve",
    "ir",
    "ven",
    "dame",
    "da",
    "trae",
    "recoge",
    "recolecta",
    "funde",
    "cocina",
    "coloca",
    "pon",
    "guarda",
    "pico",
    "hacha",
    "espada",
    "pala",
    "azada",
    "madera",
    "piedra",
    "hierro",
    "oro",
    "diamante",
    "mesa",
    "trabajo",
    "horno",
    "cofre",
    "tronco",
    "troncos",
    "roble",
    "abedul",
    "abeto",
    "tabla",
    "tablas",
    "tablones",
    "palo",
    "palos",
    "carbón",
    "mineral",
    "lingote",
    "lingotes",
    "antorcha",
    "antorchas",
    "lana",
    "oveja",
    "ovejas",
    "cerdo",
    "cerdos",
    "vaca",
    "pollo",
    "cama",
    "puerta",
    "casa",
    "muro",
    "pared",
    "agujero",
    "hoyo",
    "tierra",
    "arena",
    "vidrio",
    "pan",
    "agua",
    "cubo",
    "aquí",
    "allí",
    "dos",
    "tres",
    "cuatro",
    "cinco",
    "habilidad",
    "habilidades",
    "recuerdas",
    "visto",
    "árbol",
    "árboles",
    "bloque",
    "bloques",
    "favor",
    "fila",
    "línea",
    "adoquín",
    "adoquines",
];
/// Vietnamese written without its marks, as players sometimes type it.
const VIETNAMESE: &[&str] = &[
    "mot", "cai", "cay", "con", "cho", "toi", "ban", "lam", "che", "tao", "xay", "dao", "giet", "tim", "di", "dua",
    "lay", "cuoc", "go", "da", "sat", "vang", "kim", "cuong", "ban", "lo", "nung", "ruong", "khuc", "khoi", "thanh",
    "than", "quang", "duoc", "o", "dau", "nhung", "cua", "va", "voi", "hai", "ba", "bon", "nam", "nha",
];
/// Goal words of languages the bots do not answer in: a line of them is [`Reading::Other`], not English.
const OTHERS: &[&str] = &[
    // Portuguese
    "uma",
    "um",
    "faça",
    "faz",
    "construa",
    "pegue",
    "picareta",
    "madeira",
    "ferro",
    "pedra",
    "mesa",
    "bancada",
    "fornalha",
    "tronco",
    "troncos",
    "carvalho",
    "ovelha",
    "porco",
    "onde",
    "você",
    "não",
    "então",
    // Italian
    "fai",
    "costruisci",
    "prendi",
    "piccone",
    "legno",
    "ferro",
    "pietra",
    "tavolo",
    "banco",
    "fornace",
    "tronchi",
    "quercia",
    "pecora",
    "maiale",
    "dove",
    "della",
    "dello",
    "gli",
    // Dutch
    "maak",
    "bouw",
    "pak",
    "houweel",
    "hout",
    "ijzer",
    "steen",
    "werkbank",
    "oven",
    "stam",
    "stammen",
    "eik",
    "schaap",
    "varken",
    "waar",
    "een",
    "het",
    "voor",
    "mijn",
];

/// The most characters read: a chat line has at most 256, and its language shows long before that.
const READ_CHARS: usize = 1024;

/// The part of `text` its language is read from: its first [`READ_CHARS`] characters.
pub fn head(text: &str) -> &str {
    text.char_indices().nth(READ_CHARS).map_or(text, |(end, _)| &text[..end])
}

/// Reads which language `text` is written in.
pub fn read(text: &str) -> Reading {
    let text = head(text);
    let mut han = false;
    let mut other_script = false;
    let mut scores = [0.0f32; 5]; // en, fr, de, es, vi
    const EN: usize = 0;
    const FR: usize = 1;
    const DE: usize = 2;
    const ES: usize = 3;
    const VI: usize = 4;
    for c in text.chars() {
        match c {
            '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}' => han = true,
            // Vietnamese alone uses these letters (and the tone-marked vowels in Latin Extended Additional).
            'đ' | 'Đ' | 'ư' | 'Ư' | 'ơ' | 'Ơ' | '\u{1EA0}'..='\u{1EF9}' | 'ă' | 'Ă' => scores[VI] += 3.0,
            'ß' | 'ä' | 'ö' | 'Ä' | 'Ö' => scores[DE] += 2.0,
            'ü' | 'Ü' => {
                scores[DE] += 1.5;
                scores[ES] += 0.5;
            }
            'ñ' | 'Ñ' | '¿' | '¡' => scores[ES] += 2.0,
            'á' | 'í' | 'ó' | 'ú' | 'Á' | 'Í' | 'Ó' | 'Ú' => scores[ES] += 1.0,
            'ç' | 'œ' | 'è' | 'ê' | 'ë' | 'î' | 'ï' | 'ô' | 'û' | 'ù' | 'à' | 'â' | 'Ç' | 'È' | 'Ê' | 'À' => {
                scores[FR] += 1.0
            }
            'é' | 'É' => {
                scores[FR] += 0.5;
                scores[ES] += 0.5;
            }
            // Kana, Hangul, Cyrillic, Greek, Arabic, Hebrew, Thai, Devanagari…: not a language answered in.
            c if c.is_alphabetic() && !c.is_ascii() && !is_latin(c) => other_script = true,
            _ => {}
        }
    }
    if other_script {
        return Reading::Other;
    }
    if han {
        return Reading::Known(Lang::Zh);
    }
    let mut others = 0.0;
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '_')) {
        // Item ids (`oak_log`), numbers and names say nothing of the language.
        if word.is_empty() || word.contains('_') || word.chars().any(|c| c.is_ascii_digit()) {
            continue;
        }
        let word = word.to_lowercase();
        let word = word.trim_matches('\'');
        // `l'établi`, `d'une`: the French article and the word after it.
        let (article, word) = match word.split_once('\'') {
            Some((head @ ("l" | "d" | "j" | "qu" | "s" | "c" | "n"), tail)) => (Some(head), tail),
            _ => (None, word),
        };
        if article.is_some() {
            scores[FR] += 1.0;
        }
        if is_english_word(word) {
            scores[EN] += 1.0;
        }
        for (slot, list) in [(FR, FRENCH), (DE, GERMAN), (ES, SPANISH), (VI, VIETNAMESE)] {
            if list.contains(&word) {
                scores[slot] += 1.0;
            }
        }
        if OTHERS.contains(&word) {
            others += 1.0;
        }
    }
    let (best, &top) =
        scores.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0))).expect("five scores");
    if top == 0.0 && others == 0.0 {
        return Reading::Unclear;
    }
    if others > top {
        return Reading::Other;
    }
    // English only when it leads outright: a tie with another language (`a table`, `la mesa`) is not English.
    let second = scores.iter().enumerate().filter(|(i, _)| *i != best).map(|(_, s)| *s).fold(0.0, f32::max);
    if best == EN {
        return if top > second { Reading::Known(Lang::En) } else { Reading::Unclear };
    }
    Reading::Known([Lang::En, Lang::Fr, Lang::De, Lang::Es, Lang::Vi][best])
}

/// Whether `word` (lower case) is one of the English words players use in goals and questions, or its plural.
pub fn is_english_word(word: &str) -> bool {
    ENGLISH.contains(&word) || word.strip_suffix('s').is_some_and(|one| ENGLISH.contains(&one))
}

/// Latin letters with marks (`é`, `ñ`, `ß`, `ư`): Latin-1, Latin Extended-A and B, Latin Extended Additional.
fn is_latin(c: char) -> bool {
    matches!(c, '\u{00C0}'..='\u{024F}' | '\u{1E00}'..='\u{1EFF}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang(text: &str) -> Reading {
        read(text)
    }

    #[test]
    fn goals_in_the_five_languages_are_read_as_theirs() {
        assert_eq!(lang("chế tạo một cái cuốc gỗ"), Reading::Known(Lang::Vi));
        assert_eq!(lang("fabrique une pioche en fer"), Reading::Known(Lang::Fr));
        assert_eq!(lang("做一个工作台"), Reading::Known(Lang::Zh));
        assert_eq!(lang("baue eine Werkbank"), Reading::Known(Lang::De));
        assert_eq!(lang("consigue 3 troncos de roble"), Reading::Known(Lang::Es));
        assert_eq!(lang("où as-tu vu du fer"), Reading::Known(Lang::Fr));
        assert_eq!(lang("wo hast du Eisen gesehen"), Reading::Known(Lang::De));
        assert_eq!(lang("¿dónde viste hierro?"), Reading::Known(Lang::Es));
        assert_eq!(lang("lam mot cai ban che tao"), Reading::Known(Lang::Vi));
    }

    #[test]
    fn english_goals_stay_english_and_ids_say_nothing() {
        for goal in [
            "get 3 oak logs",
            "craft a stone pickaxe",
            "craft 1 wooden_pickaxe",
            "mine 3 iron ore",
            "kill a pig",
            "the base is at 10 64 -20",
            "where did you see iron",
            "lay 4 cobblestone in a line",
            "store planks in a chest you place",
            "build a wall of cobblestone 3 long and 2 high",
        ] {
            assert_eq!(lang(goal), Reading::Known(Lang::En), "{goal}");
        }
        for unclear in ["", "3 oak_log", "wooden_pickaxe", "12 64 -5", "Alice"] {
            assert_eq!(lang(unclear), Reading::Unclear, "{unclear}");
        }
    }

    #[test]
    fn other_languages_are_foreign_but_not_answered_in() {
        for text in ["作業台を作って", "сделай кирку", "faça uma picareta de madeira", "costruisci un piccone di legno"]
        {
            assert_eq!(lang(text), Reading::Other, "{text}");
            assert_eq!(lang(text).answer_in(), None);
        }
    }
}
