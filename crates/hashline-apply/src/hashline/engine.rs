//! The hashline front end of the executor: sections split and parsed, each section's tag
//! validated or recovered (its plan), the call-wide checks of the seed (two sections on one
//! file, a no-op among several), and the seed's words for failures.

use std::path::Path;

use hashline_core::{Edit, SpliceError, TextFile};
use hashline_state::StoreError;
use hashline_syntax::hashline::{parse_body, split_sections, ParsedBody, Section, SplitOptions};

use super::apply::splice_error;
use super::error::HashlineError;
use super::lower::BlockCtx;
use super::section::{prepare, Mode, SectionInput};
use super::{messages, EditOptions};
use crate::fs::FsError;
use crate::guard;
use crate::pipeline::commit::CommitError;
use crate::pipeline::execute::{Done, EditPlan, FrontEnd, Intent, Land, Opened, Plan};

/// A hashline patch as the executor's front end.
pub(crate) struct Hashline<'a> {
    sections: Vec<Section>,
    /// Each section's parsed body, filled at its turn.
    bodies: Vec<ParsedBody>,
    opts: &'a EditOptions<'a>,
    mode: Mode,
}

impl<'a> Hashline<'a> {
    /// Split `input` into sections (absolute header paths made relative to `cwd`).
    pub fn new(
        input: &str,
        cwd: Option<String>,
        opts: &'a EditOptions<'a>,
        mode: Mode,
    ) -> Result<Hashline<'a>, HashlineError> {
        let split = SplitOptions {
            cwd,
            fallback_path: None,
        };
        let sections =
            split_sections(input, &split).map_err(|e| HashlineError::Parse(e.message))?;
        if sections.is_empty() {
            return Err(HashlineError::Parse(messages::NO_SECTIONS.to_string()));
        }
        Ok(Hashline {
            bodies: Vec::with_capacity(sections.len()),
            sections,
            opts,
            mode,
        })
    }
}

impl FrontEnd for Hashline<'_> {
    type Error = HashlineError;

    fn intents(&self) -> Vec<Intent> {
        self.sections
            .iter()
            .map(|s| Intent {
                path: s.path.clone(),
                dest: None,
            })
            .collect()
    }

    /// Refusals in the seed's order: each section's parse, then its tag, then its path.
    fn begin(&mut self, i: usize) -> Result<(), HashlineError> {
        let section = &self.sections[i];
        let body = parse_body(&section.body).map_err(|e| HashlineError::Parse(e.message))?;
        if section.tag.is_none() {
            return Err(HashlineError::MissingTag(messages::missing_tag(
                &section.path,
            )));
        }
        self.bodies.push(body);
        Ok(())
    }

    fn fs_error(&self, _i: usize, e: FsError) -> HashlineError {
        e.into()
    }

    fn plan(&mut self, opened: Opened<'_>) -> Result<Plan, HashlineError> {
        let (section, body) = (&self.sections[opened.index], &self.bodies[opened.index]);
        let Some(bytes) = opened.bytes else {
            return Err(HashlineError::FileNotFound(messages::file_not_found(
                &section.path,
            )));
        };
        if let Some(message) = hashline_core::kind::refusal(&section.path, &bytes, "edit") {
            return Err(HashlineError::Fs(hashline_core::ErrorCode::Binary, message));
        }
        let live = TextFile::decode(bytes);
        let ctx = BlockCtx {
            resolver: self.opts.resolver,
            path: Path::new(&section.path),
        };
        let input = SectionInput {
            path: &section.path,
            tag: section.tag.as_deref().unwrap_or_default(),
            hunks: &body.hunks,
            parse_warnings: &body.warnings,
            key: &opened.target.key,
        };
        let applied = prepare(&input, &live, opened.store, ctx, self.mode)?;
        Ok(Plan::Edit(EditPlan {
            file: live,
            edits: applied.edits,
            spliced: Some(Box::new(applied.spliced)),
            land: Land::Update,
            warnings: applied.warnings,
        }))
    }

    fn splice_error(&self, e: SpliceError) -> HashlineError {
        splice_error(e)
    }

    fn anchor(&self, _i: usize, lines: &[&str], n: usize) -> String {
        format!("{n}:{}", lines.get(n - 1).copied().unwrap_or(""))
    }

    fn label(&self, _i: usize, e: &Edit) -> String {
        guard::op_label(e)
    }

    /// Two sections on one canonical file, then (with several sections) any no-op.
    fn before_commit(&self, done: &[Done]) -> Result<(), HashlineError> {
        for (i, d) in done.iter().enumerate() {
            if let Some(first) = done[..i].iter().find(|e| e.target.key == d.target.key) {
                return Err(HashlineError::DuplicateFile(messages::duplicate_target(
                    &first.target.display,
                    &d.target.display,
                )));
            }
        }
        if done.len() > 1 {
            if let Some(d) = done.iter().find(|d| d.noop) {
                return Err(HashlineError::Noop(messages::noop(&d.target.display)));
            }
        }
        Ok(())
    }

    fn records_noop(&self) -> bool {
        true
    }

    fn store_error(&self, e: StoreError) -> HashlineError {
        e.into()
    }

    fn store_warning(&self, e: &StoreError) -> String {
        crate::not_recorded("The edit was written", e)
    }

    fn commit_error(&self, e: CommitError) -> HashlineError {
        HashlineError::Fs(e.code(), e.to_string())
    }
}
