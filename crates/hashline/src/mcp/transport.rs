//! The stdio transport: one JSON-RPC message per line, each line [`screen`]ed before the SDK
//! sees it, so a malformed one is answered (and logged on standard error) instead of dropped.
//!
//! rmcp's own stdio transport ignores a line that is not JSON, and its codec drops a line
//! over its size limit with only a trace event; a client then waits for an answer that never
//! comes. This one answers every such line. Writes go through one writer task, so the SDK's
//! answers and this transport's are never interleaved within a line.

use std::future::Future;

use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::Transport;
use rmcp::RoleServer;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc::{unbounded_channel, UnboundedSender};
use tokio::task::JoinHandle;

use super::screen::{oversized, screen, Screened, MAX_MESSAGE_BYTES};

/// How much of an oversized line is kept to find its id.
const PREFIX_BYTES: usize = 4096;

/// A server transport over a reader and a writer (standard input and output).
pub(crate) struct LineTransport<R> {
    read: BufReader<R>,
    /// The line read so far (kept across a cancelled `receive`).
    line: Vec<u8>,
    /// Bytes of the current line when it is over the limit (its first [`PREFIX_BYTES`] kept
    /// in `line`), until its end is read.
    over: Option<usize>,
    out: Option<UnboundedSender<Vec<u8>>>,
    writer: Option<JoinHandle<()>>,
}

impl<R: AsyncRead + Send + Unpin + 'static> LineTransport<R> {
    /// A transport reading `read` and writing `write`.
    pub(crate) fn new<W: AsyncWrite + Send + Unpin + 'static>(read: R, mut write: W) -> Self {
        let (out, mut lines) = unbounded_channel::<Vec<u8>>();
        let writer = tokio::spawn(async move {
            while let Some(line) = lines.recv().await {
                if let Err(e) = async {
                    write.write_all(&line).await?;
                    write.flush().await
                }
                .await
                {
                    eprintln!("hashline mcp: cannot write to standard output: {e}");
                    return;
                }
            }
        });
        LineTransport {
            read: BufReader::new(read),
            line: Vec::new(),
            over: None,
            out: Some(out),
            writer: Some(writer),
        }
    }

    /// Queue one JSON value as a line.
    fn queue(&self, value: &impl serde::Serialize) -> std::io::Result<()> {
        let mut bytes = serde_json::to_vec(value)?;
        bytes.push(b'\n');
        match &self.out {
            Some(out) if out.send(bytes).is_ok() => Ok(()),
            _ => Err(std::io::Error::new(
                std::io::ErrorKind::NotConnected,
                "the transport is closed",
            )),
        }
    }

    /// The next whole line (without its `\n`) into `self.line`, or `Ok(false)` at the end of
    /// the input. Cancellation safe: what was read stays in `self`.
    async fn read_line(&mut self) -> std::io::Result<bool> {
        loop {
            let available = self.read.fill_buf().await?;
            if available.is_empty() {
                return Ok(false);
            }
            let newline = available.iter().position(|b| *b == b'\n');
            let take = newline.map_or(available.len(), |i| i + 1);
            let body = &available[..newline.unwrap_or(take)];
            match &mut self.over {
                Some(length) => *length = length.saturating_add(take),
                None if self.line.len().saturating_add(body.len()) > MAX_MESSAGE_BYTES => {
                    let length = self.line.len().saturating_add(take);
                    let keep = PREFIX_BYTES.saturating_sub(self.line.len()).min(body.len());
                    self.line.truncate(PREFIX_BYTES);
                    self.line.extend_from_slice(&body[..keep]);
                    self.over = Some(length);
                }
                None => self.line.extend_from_slice(body),
            }
            self.read.consume(take);
            if newline.is_some() {
                return Ok(true);
            }
        }
    }

    /// Send the answer to a malformed line (if it has one) and log it.
    fn answer(&self, reply: Option<serde_json::Value>, log: &str) {
        eprintln!("hashline mcp: {log}");
        if let Some(reply) = reply {
            if let Err(e) = self.queue(&reply) {
                eprintln!("hashline mcp: cannot answer: {e}");
            }
        }
    }
}

impl<R: AsyncRead + Send + Unpin + 'static> Transport<RoleServer> for LineTransport<R> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: ServerJsonRpcMessage,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let queued = self.queue(&item);
        async move { queued }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        loop {
            match self.read_line().await {
                Ok(true) => {}
                Ok(false) => return None,
                Err(e) => {
                    eprintln!("hashline mcp: cannot read standard input: {e}");
                    return None;
                }
            }
            let line = std::mem::take(&mut self.line);
            let screened = match self.over.take() {
                Some(length) => oversized(&line, length),
                None => screen(&line),
            };
            match screened {
                Screened::Message(message) => return Some(*message),
                Screened::Answer { reply, log } => self.answer(reply, &log),
                Screened::Skip => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        // Every queued line is written before the server stops.
        drop(self.out.take());
        if let Some(writer) = self.writer.take() {
            writer.await.map_err(std::io::Error::other)?;
        }
        Ok(())
    }
}
