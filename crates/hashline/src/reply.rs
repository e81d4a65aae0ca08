//! What a [`Session`](crate::Session) call returns: `Result<Reply, Refusal>`.
//!
//! A [`Reply`] is a call that did what it was asked (warnings may come with it); a [`Refusal`]
//! is one that was refused, with its stable [`ErrorCode`], and wrote nothing. Both carry the
//! model-facing text, the coded warnings, the per-file facts (with the fresh anchors of a
//! written change), the undo id of a call that wrote, and the CLI's `--json` object. The
//! command line and the MCP server present either as a [`Response`].

use std::borrow::Cow;
use std::fmt;

use hashline_apply::{FileReport, Outcome};
use hashline_core::ErrorCode;

use crate::{PreviewReport, ResolveReport, Response, StateOutcome};

/// The answer of every [`Session`](crate::Session) call.
pub type Answer = Result<Reply, Refusal>;

/// A call that did what it was asked.
#[must_use = "a reply carries the text and warnings the model should see"]
#[derive(Debug, Clone)]
pub struct Reply {
    response: Response,
    detail: Detail,
}

/// A refused call: nothing was written. Its [`code`](Refusal::code) is stable; its
/// [`text`](Refusal::text) says what to do next.
#[must_use = "a refusal says why nothing was written and what to do next"]
#[derive(Debug, Clone)]
pub struct Refusal {
    code: ErrorCode,
    /// Boxed: an `Err` stays small beside the `Ok` path.
    response: Box<Response>,
}

/// The command's own structured facts, beside the [`Outcome`] fields.
#[derive(Debug, Clone, Default)]
pub(crate) enum Detail {
    /// Nothing beyond the outcome.
    #[default]
    None,
    /// `ast_edit`: the preview queued.
    Preview(Box<PreviewReport>),
    /// `resolve`: what was applied, discarded or listed.
    Resolve(Box<ResolveReport>),
    /// `state`: the sessions listed or pruned.
    State(Box<StateOutcome>),
}

/// One warning of a call: `[W_CODE] text`, split.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Warning<'a> {
    /// The stable code (`W_MERGED_LINES`, …); `None` for a line without one.
    pub code: Option<&'a str>,
    /// The whole warning, code included, as the model sees it.
    pub text: &'a str,
}

impl<'a> Warning<'a> {
    /// `text` with its leading `[W_…]` code, if any, split off.
    pub fn parse(text: &'a str) -> Warning<'a> {
        let code = text
            .strip_prefix('[')
            .and_then(|rest| rest.split_once(']'))
            .map(|(code, _)| code)
            .filter(|code| {
                code.starts_with("W_")
                    && code
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            });
        Warning { code, text }
    }
}

impl Reply {
    /// The model-facing text (what the CLI prints, what the MCP tool result shows).
    pub fn text(&self) -> &str {
        &self.response.outcome.text
    }

    /// The call's warnings, each with its code.
    pub fn warnings(&self) -> impl Iterator<Item = Warning<'_>> {
        warnings(&self.response.outcome)
    }

    /// What happened to each file; a written change carries its fresh anchors
    /// ([`FileReport::anchors`]).
    pub fn files(&self) -> &[FileReport] {
        &self.response.outcome.files
    }

    /// The call's id in the undo log when it wrote and was recorded
    /// ([`Session::undo`](crate::Session::undo)).
    pub fn undo(&self) -> Option<u64> {
        self.response.outcome.undo
    }

    /// The preview an `ast_edit` queued (its id is what `resolve` takes).
    pub fn preview(&self) -> Option<&PreviewReport> {
        match &self.detail {
            Detail::Preview(preview) => Some(preview),
            _ => None,
        }
    }

    /// What a `resolve` applied, discarded or listed.
    pub fn resolved(&self) -> Option<&ResolveReport> {
        match &self.detail {
            Detail::Resolve(report) => Some(report),
            _ => None,
        }
    }

    /// The sessions a `state` call listed or pruned.
    pub fn sessions(&self) -> Option<&StateOutcome> {
        match &self.detail {
            Detail::State(state) => Some(state),
            _ => None,
        }
    }

    /// All the fields as the engine reported them.
    pub fn outcome(&self) -> &Outcome {
        &self.response.outcome
    }

    /// The CLI's `--json` object, serialized.
    pub fn json(&self) -> Cow<'_, str> {
        self.response.json()
    }

    /// The `--json` object as a value (the MCP server's structured content).
    pub fn report(&self) -> serde_json::Value {
        self.response.report()
    }
}

impl Refusal {
    /// The refusal's stable code (listed in `docs/ERRORS.md` with what to do next).
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The model-facing text: why, and what to do next.
    pub fn text(&self) -> &str {
        &self.response.outcome.text
    }

    /// Warnings gathered before the refusal, each with its code.
    pub fn warnings(&self) -> impl Iterator<Item = Warning<'_>> {
        warnings(&self.response.outcome)
    }

    /// The files the refused call named (nothing of them was written).
    pub fn files(&self) -> &[FileReport] {
        &self.response.outcome.files
    }

    /// All the fields as the engine reported them.
    pub fn outcome(&self) -> &Outcome {
        &self.response.outcome
    }

    /// The CLI's `--json` object, serialized.
    pub fn json(&self) -> Cow<'_, str> {
        self.response.json()
    }

    /// The `--json` object as a value (the MCP server's structured content).
    pub fn report(&self) -> serde_json::Value {
        self.response.report()
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}", self.code.as_str(), self.text())
    }
}

impl std::error::Error for Refusal {}

fn warnings(outcome: &Outcome) -> impl Iterator<Item = Warning<'_>> {
    outcome.warnings.iter().map(|w| Warning::parse(w))
}

/// `response` as an [`Answer`]: a [`Refusal`] when the outcome is not `ok`. A refusal without
/// a code (which no engine path builds) is an internal failure, `E_IO`.
pub(crate) fn answer(response: Response, detail: Detail) -> Answer {
    if response.outcome.ok {
        return Ok(Reply { response, detail });
    }
    let code = response.outcome.code.unwrap_or(ErrorCode::Io);
    Err(Refusal {
        code,
        response: Box::new(response),
    })
}

impl From<Answer> for Response {
    fn from(answer: Answer) -> Response {
        match answer {
            Ok(reply) => reply.response,
            Err(refusal) => *refusal.response,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warnings_split_their_code() {
        let w = Warning::parse("[W_MERGED_LINES] row 2 of 3 looks like two lines");
        assert_eq!(w.code, Some("W_MERGED_LINES"));
        assert_eq!(Warning::parse("plain words").code, None);
        assert_eq!(Warning::parse("[note] lower case").code, None);
    }

    #[test]
    fn an_outcome_that_is_not_ok_is_a_refusal_with_its_code() {
        let refused = Response::from_outcome(Outcome::refused(ErrorCode::StaleAnchor, "stale"));
        let answer = answer(refused, Detail::None);
        let refusal = answer.expect_err("refused");
        assert_eq!(refusal.code(), ErrorCode::StaleAnchor);
        assert_eq!(refusal.to_string(), "[E_STALE_ANCHOR] stale");
        let ok = answer_ok("done");
        assert_eq!(ok.text(), "done");
        assert_eq!(ok.undo(), None);
    }

    fn answer_ok(text: &str) -> Reply {
        answer(Response::from_outcome(Outcome::success(text)), Detail::None).expect("ok")
    }
}
