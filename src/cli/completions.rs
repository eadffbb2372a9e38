//! `nqueens completions SHELL` and `nqueens man`: a shell completion script (clap_complete)
//! and the manual page (clap_mangen, roff), both written on standard output and both made from
//! the same argument definitions as `--help`, so they never fall out of step with it.
//!
//! ```sh
//! nqueens completions bash > ~/.local/share/bash-completion/completions/nqueens
//! nqueens man > ~/.local/share/man/man1/nqueens.1        # or: nqueens man | man -l -
//! ```

use super::args::Cli;
use super::exit::ExitCode;
use anyhow::Result;
use clap::CommandFactory;
use clap_complete::Shell;
use std::io::Write;

/// Prints the completion script for `shell`.
pub fn completions(shell: Shell) -> Result<ExitCode> {
    let mut command = Cli::command();
    // The generator panics on a failed write: it writes to memory, and the result is written
    // here, where a closed pipe or a full disk is an error like any other.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "nqueens", &mut script);
    print(&script)
}

/// Prints the manual page: the program's page, then one section per subcommand with its
/// synopsis, options and examples.
pub fn man() -> Result<ExitCode> {
    // `help` is a subcommand of the command line, not a topic of the manual.
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    let mut page = Vec::new();
    clap_mangen::Man::new(command.clone()).render(&mut page)?;
    for sub in command.get_subcommands() {
        let name = format!("nqueens {}", sub.get_name());
        writeln!(page, ".SH \"{}\"", name.to_uppercase())?;
        let man = clap_mangen::Man::new(sub.clone());
        let mut section = Vec::new();
        man.render_synopsis_section(&mut section)?;
        man.render_description_section(&mut section)?;
        man.render_options_section(&mut section)?;
        // The subcommand's own sections become subsections of its section.
        for line in String::from_utf8_lossy(&section).lines() {
            match line.strip_prefix(".SH ") {
                Some(title) => writeln!(page, ".SS {title}")?,
                None => writeln!(page, "{line}")?,
            }
        }
        if let Some(examples) = sub.get_after_help() {
            // Kept as lines (`.nf`): they are commands with their outcome beside them.
            writeln!(page, ".SS EXAMPLES\n.nf")?;
            for line in examples.to_string().lines().skip(1) {
                let line = line.replace('\\', "\\e").replace('-', "\\-");
                writeln!(page, "\\&{line}")?;
            }
            writeln!(page, ".fi")?;
        }
    }
    writeln!(page, ".SH \"EXIT STATUS\"")?;
    for (code, meaning) in super::exit::MEANINGS {
        writeln!(page, ".TP\n\\fB{code}\\fR\n{}", roff(meaning))?;
    }
    writeln!(page, ".SH ENVIRONMENT")?;
    for (variable, meaning) in ENVIRONMENT {
        writeln!(page, ".TP\n\\fB{variable}\\fR\n{}", roff(meaning))?;
    }
    print(&tidy(&page))
}

/// The environment variables the binary reads, for the manual's ENVIRONMENT section.
const ENVIRONMENT: &[(&str, &str)] = &[
    (
        super::progress::INTERVAL_VARIABLE,
        "milliseconds between two plain progress lines (count --progress always without a \
         terminal); 10000 unless set, 5 at the least",
    ),
    (
        "OMPI_COMM_WORLD_SIZE, PMI_SIZE, PMIX_SIZE, SLURM_NTASKS",
        "read by count --mpi (builds with the mpi feature) to warn when the launcher started \
         more ranks than the program sees",
    ),
];

/// Text as roff takes it in a paragraph: backslashes and hyphens escaped, and no line that
/// starts with a control character.
fn roff(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

/// The page with its title first, as `man` and `lexgrog` expect, and the string definition
/// that every rendered section repeats given once, after it. clap_mangen names each
/// subcommand as a page of its own (`nqueens-count(1)`), which is not installed: its section
/// of this page is named instead.
fn tidy(page: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(page);
    let is_definition =
        |line: &&str| line.starts_with(".ie \\n(.g .ds Aq") || line.starts_with(".el .ds Aq");
    let definitions: Vec<&str> = text.lines().filter(is_definition).take(2).collect();
    let mut tidy = String::new();
    for line in text.lines().filter(|line| !is_definition(line)) {
        let subcommand = line
            .strip_prefix("nqueens\\-")
            .and_then(|rest| rest.strip_suffix("(1)"));
        match subcommand {
            Some(name) => tidy.push_str(&format!("\\fBnqueens {name}\\fR (its section below)")),
            None => tidy.push_str(line),
        }
        tidy.push('\n');
        if line.starts_with(".TH ") {
            for definition in &definitions {
                tidy.push_str(definition);
                tidy.push('\n');
            }
        }
    }
    tidy.into_bytes()
}

/// Writes `bytes` on standard output.
fn print(bytes: &[u8]) -> Result<ExitCode> {
    let mut out = super::output::stdout();
    out.write_all(bytes)?;
    out.flush()?;
    Ok(ExitCode::Success)
}
