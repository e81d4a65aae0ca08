//! The decoders as test oracles: llguidance (a grammar compiled by its Lark or JSON-schema
//! front end, run over a byte-level tokenizer — toktrie's single-byte vocabulary: token `b` is
//! the byte `b` —, so a text is accepted exactly when the decoder would let a model emit it
//! byte by byte) and llama.cpp's GBNF engine (as ported to Rust by `schoolmarm`: its GBNF
//! reader and its stack-based matcher, fed one code point at a time).

use llguidance::api::TopLevelGrammar;
use llguidance::toktrie::{ApproximateTokEnv, TokEnv};
use llguidance::{Matcher, ParserFactory};

/// A compiled grammar and the tokenizer it runs over.
pub struct Decoder {
    env: TokEnv,
    factory: ParserFactory,
    grammar: TopLevelGrammar,
}

impl Decoder {
    /// Compile `grammar`; `Err` is llguidance's refusal of it.
    fn new(grammar: TopLevelGrammar) -> Result<Self, String> {
        let env = ApproximateTokEnv::single_byte_env();
        let mut factory = ParserFactory::new_simple(&env).map_err(|e| e.to_string())?;
        factory.quiet();
        factory
            .create_parser(grammar.clone())
            .map_err(|e| e.to_string())?;
        Ok(Decoder {
            env,
            factory,
            grammar,
        })
    }

    /// A grammar in Lark syntax, through llguidance's Lark front end.
    pub fn lark(text: &str) -> Result<Self, String> {
        Self::new(TopLevelGrammar::from_lark(text.to_string()))
    }

    /// A JSON Schema, through llguidance's JSON-schema front end.
    pub fn json_schema(schema: serde_json::Value) -> Result<Self, String> {
        Self::new(TopLevelGrammar::from_json_schema(schema))
    }

    fn matcher(&self) -> Matcher {
        Matcher::new(self.factory.create_parser(self.grammar.clone()))
    }

    /// Whether the decoder lets a model emit exactly `text` (every byte allowed in turn, and the
    /// end of generation allowed after the last).
    pub fn accepts(&self, text: &[u8]) -> bool {
        let mut m = self.matcher();
        let tokens = self.env.tokenize_bytes(text);
        assert_eq!(tokens.len(), text.len(), "one token per byte");
        matches!(m.try_consume_tokens(&tokens), Ok(n) if n == tokens.len())
            && m.is_accepting().unwrap_or(false)
    }

    /// One text the decoder allows, chosen by a random walk: at each step the end when it is
    /// allowed (with probability `stop`); else, once the current line is longer than a random
    /// length under 24 bytes, the first of `endings(rng)` the decoder allows in full (so lines
    /// and headers end: `\n`, `#TAG\n`); else a uniformly random allowed byte. `None` when the
    /// walk passes `max` bytes.
    pub fn sample(
        &self,
        rng: &mut Rng,
        stop: f64,
        endings: &dyn Fn(&mut Rng) -> Vec<Vec<u8>>,
        max: usize,
    ) -> Option<Vec<u8>> {
        let mut m = self.matcher();
        let eos = self.env.tok_trie().eos_token();
        let mut out: Vec<u8> = Vec::new();
        let mut line_limit = rng.below(24);
        while out.len() <= max {
            if m.is_stopped() {
                // Only the end is left.
                return Some(out);
            }
            let mask = m.compute_mask().ok()?;
            let allowed: Vec<u32> = mask.to_list().into_iter().filter(|&t| t < 256).collect();
            if mask.is_allowed(eos) && (allowed.is_empty() || rng.unit() < stop) {
                return Some(out);
            }
            let line = out.len() - out.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            if line > line_limit {
                let ending = endings(rng).into_iter().find(|ending| {
                    let mut probe = m.deep_clone();
                    matches!(probe.try_consume_tokens(&to_tokens(ending)), Ok(n) if n == ending.len())
                });
                if let Some(ending) = ending {
                    m.consume_tokens(&to_tokens(&ending)).ok()?;
                    out.extend_from_slice(&ending);
                    line_limit = rng.below(24);
                    continue;
                }
            }
            let token = *allowed.get(rng.below(allowed.len()))?;
            m.consume_token(token).ok()?;
            out.push(token as u8);
        }
        None
    }
}

/// A GBNF grammar read and compiled by llama.cpp's grammar engine (`schoolmarm`).
pub struct Gbnf(schoolmarm::Grammar);

impl Gbnf {
    /// Read and compile `text` (root rule `root`); `Err` is the reader's refusal.
    pub fn new(text: &str) -> Result<Self, String> {
        schoolmarm::Grammar::new(text)
            .map(Gbnf)
            .map_err(|e| e.to_string())
    }

    /// Whether the grammar lets a model emit exactly `text`: every code point allowed in turn,
    /// and the root complete after the last.
    pub fn accepts(&self, text: &str) -> bool {
        let Ok(mut state) = schoolmarm::GrammarState::new(self.0.clone()) else {
            return false;
        };
        state.accept_token(text).is_ok() && state.is_accepting()
    }
}

fn to_tokens(bytes: &[u8]) -> Vec<u32> {
    bytes.iter().map(|&b| u32::from(b)).collect()
}

/// A small deterministic generator (xorshift64*), so a failing sample is reproducible.
pub struct Rng(u64);

impl Rng {
    /// A generator from a non-zero seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A value in `0..n` (`0` when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }

    /// A value in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}
