//! `arbiter pair`: the next round of a Swiss event, or a check of every round of a TRF.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use tournament::dutch;
use tournament::trf::Trf;

pub fn run(
    file: &Path,
    system: &str,
    check: bool,
    output: Option<&Path>,
    cxa: &tournament::cxa_swiss::Options,
) -> Result<()> {
    if system != "dutch" && system != "cxa" {
        bail!("unknown pairing system {system:?} (known: dutch, cxa)");
    }
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let trf = Trf::parse(&String::from_utf8_lossy(&bytes)).with_context(|| file.display().to_string())?;
    if system == "cxa" {
        if check {
            bail!("--check is for the Dutch system (积分编排制 has no single right answer)");
        }
        let entrants = tournament::cxa_swiss::entrants(&trf);
        let round = dutch::rounds_paired(&trf) + 1;
        let pairing = tournament::cxa_swiss::pair(&entrants, round, cxa)?;
        return emit(&pairing.to_string(), output);
    }
    let mut text = String::new();
    if check {
        let differences = dutch::check(&trf);
        let rounds = dutch::rounds_paired(&trf);
        for d in &differences {
            text.push_str(&format!("{}: Round #{}\n", file.display(), d.round));
            match &d.expected {
                Ok(p) => {
                    text.push_str("  Checker pairings        Tournament pairings\n");
                    let blank = String::new();
                    let ours = lines(p);
                    let theirs = lines(&d.found);
                    for i in 0..ours.len().max(theirs.len()) {
                        let a = ours.get(i).unwrap_or(&blank);
                        let b = theirs.get(i).unwrap_or(&blank);
                        text.push_str(&format!("    {a:<24}{b}\n"));
                    }
                }
                Err(e) => text.push_str(&format!("  {e}\n")),
            }
        }
        text.push_str(&format!("{} of {rounds} rounds differ\n", differences.len()));
        emit(&text, output)?;
        if !differences.is_empty() {
            std::io::stdout().flush()?;
            bail!("{} of {rounds} rounds differ from the Dutch system", differences.len());
        }
        return Ok(());
    }
    let pairing = dutch::pair_next(&trf)?;
    emit(&pairing.to_string(), output)
}

fn lines(p: &dutch::Pairing) -> Vec<String> {
    let mut v: Vec<String> = p.boards.iter().map(|(w, b)| format!("{w:>4} - {b:>4}")).collect();
    if let Some(b) = p.bye {
        v.push(format!("{b:>4} -    0"));
    }
    v
}

fn emit(text: &str, output: Option<&Path>) -> Result<()> {
    match output {
        Some(path) => std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display())),
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            Ok(())
        }
    }
}
