//! `nqueens gpu-info`: the GPU adapters this build can count on, best first, as a table.

use super::exit::ExitCode;
use super::stderr::say;
use anyhow::Result;
use std::io::Write;

/// Prints the adapters found; exit 1 (with a hint on stderr) when there are none.
pub fn run() -> Result<ExitCode> {
    let adapters = nqueens::gpu::adapters();
    if adapters.is_empty() {
        say!(
            "no GPU adapter found: a GPU driver is needed (for Vulkan on Debian or Ubuntu, \
             `apt-get install libvulkan1 mesa-vulkan-drivers` gives at least the software one)"
        );
        return Ok(ExitCode::Failure);
    }
    let mut out = super::output::stdout();
    writeln!(
        out,
        "{:<40}  {:<8}  {:<10}  driver",
        "name", "backend", "type"
    )?;
    for adapter in adapters {
        writeln!(
            out,
            "{:<40}  {:<8}  {:<10}  {}",
            adapter.name, adapter.backend, adapter.device_type, adapter.driver
        )?;
    }
    out.flush()?;
    Ok(ExitCode::Success)
}
