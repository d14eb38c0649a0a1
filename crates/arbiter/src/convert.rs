//! `arbiter convert`: records from any readable format to PGN or FEN + moves.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use records::files::{self, AnyRecord, Format};
use xiangqi::notation::Notation;

/// Counts the bytes read, for the progress bar.
pub(crate) struct Counting<R> {
    pub inner: R,
    pub bar: ProgressBar,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bar.inc(n as u64);
        Ok(n)
    }
}

/// Opens a record file for reading, with a progress bar for inputs large enough to be worth
/// watching (it shows only on a terminal).
pub(crate) fn open_with_progress(path: &Path) -> Result<(BufReader<Counting<File>>, ProgressBar)> {
    let file = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let bar = if size > 8 << 20 {
        ProgressBar::new(size)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}")
            .expect("valid template"),
    );
    let reader = BufReader::with_capacity(
        1 << 16,
        Counting {
            inner: file,
            bar: bar.clone(),
        },
    );
    Ok((reader, bar))
}

pub fn run(
    input: &Path,
    output: &Path,
    (notation, style): (&str, &str),
    to: Option<&str>,
    encoding: Option<&str>,
    judge: Option<&crate::judge::Options>,
) -> Result<()> {
    let notation: Notation = notation.parse().map_err(anyhow::Error::msg)?;
    let style: records::pgn::PgnStyle = style.parse().map_err(anyhow::Error::msg)?;
    let encoding = files::output_encoding(encoding).map_err(anyhow::Error::msg)?;
    let out_format = match to {
        Some(t) => t.parse::<Format>().map_err(anyhow::Error::msg)?,
        None => match output
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("pgn") => Format::XiangqiPgn,
            Some("txt" | "moves" | "uci") => Format::FenMoves,
            _ => bail!(
                "cannot tell the output format from {}; use --to pgn|moves",
                output.display()
            ),
        },
    };
    if !matches!(out_format, Format::XiangqiPgn | Format::ChessPgn | Format::FenMoves) {
        bail!("writing {out_format:?} is not supported; write pgn or moves");
    }

    let (mut reader, bar) = open_with_progress(input)?;
    let head = reader.fill_buf()?.to_vec();
    let format = files::detect_format(input, &head);
    let games = files::read_as(input, format, reader)?;

    let out = File::create(output).with_context(|| format!("cannot create {}", output.display()))?;
    let mut out = BufWriter::new(out);
    let (mut written, mut failed, mut issues) = (0usize, 0usize, 0usize);
    let mut text = String::new();
    for (i, game) in games.enumerate() {
        match game {
            Ok(mut record) => {
                if let Some(opts) = judge {
                    if let Some(w) = crate::judge::annotate(&mut record, opts)? {
                        bar.suspend(|| eprintln!("{}: game {}: {w}", input.display(), i + 1));
                    }
                }
                for issue in record.issues() {
                    issues += 1;
                    let ply = issue.ply.map(|p| format!(", ply {p}")).unwrap_or_default();
                    bar.suspend(|| eprintln!("{}: game {}{ply}: {}", input.display(), i + 1, issue.message));
                }
                text.clear();
                match out_format {
                    Format::FenMoves => files::write_fen_moves(&record, &mut text)?,
                    _ => {
                        files::write_pgn_styled(&record, notation, style, &mut text)?;
                        text.push('\n');
                    }
                }
                if matches!(record, AnyRecord::Xiangqi(_)) {
                    out.write_all(&encoding.encode(&text))?;
                } else {
                    out.write_all(text.as_bytes())?;
                }
                written += 1;
            }
            Err(e) => {
                failed += 1;
                bar.suspend(|| eprintln!("{e}"));
            }
        }
    }
    out.flush()?;
    bar.finish_and_clear();
    eprintln!(
        "{}: {written} games written to {} ({format:?} → {out_format:?}), {failed} unreadable, {issues} issues",
        input.display(),
        output.display()
    );
    Ok(())
}
