//! Draws the CSV of `scripts/bench.sh` as an SVG chart, with no dependencies and no network:
//! on the left, time against n on a logarithmic scale (each engine and thread count, and the
//! textbook counter); on the right, thread scaling (time on one thread over time on T
//! threads, for each engine and n).
//!
//! `cargo run --release --example chart -- bench.csv bench.svg`

use std::collections::BTreeMap;
use std::fmt::Write;

/// One row of the CSV.
struct Row {
    n: u32,
    engine: String,
    threads: u32,
    seconds: f64,
    textbook: f64,
}

const PANEL_W: f64 = 420.0;
const PANEL_H: f64 = 300.0;
const MARGIN: f64 = 60.0;
const COLORS: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf", "#7f7f7f",
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: chart BENCH.csv OUT.svg");
        std::process::exit(2);
    }
    let rows = match read(&args[1]) {
        Ok(rows) if !rows.is_empty() => rows,
        Ok(_) => fail(&format!("{}: no rows", args[1])),
        Err(e) => fail(&format!("{}: {e}", args[1])),
    };
    if let Err(e) = std::fs::write(&args[2], svg(&rows)) {
        fail(&format!("{}: {e}", args[2]));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}

fn read(path: &str) -> Result<Vec<Row>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let bad = || {
            format!(
                "line {}: expected n,engine,threads,seconds,textbook,...",
                i + 1
            )
        };
        if f.len() < 5 {
            return Err(bad());
        }
        rows.push(Row {
            n: f[0].parse().map_err(|_| bad())?,
            engine: f[1].to_string(),
            threads: f[2].parse().map_err(|_| bad())?,
            seconds: f[3].parse().map_err(|_| bad())?,
            textbook: f[4].parse().map_err(|_| bad())?,
        });
    }
    Ok(rows)
}

/// A panel's mapping from data to pixels.
struct Axes {
    x0: f64,
    x_min: f64,
    x_max: f64,
    y_min: f64,
    y_max: f64,
}

impl Axes {
    fn x(&self, v: f64) -> f64 {
        self.x0 + MARGIN + (v - self.x_min) / (self.x_max - self.x_min).max(1e-9) * PANEL_W
    }
    fn y(&self, v: f64) -> f64 {
        MARGIN + PANEL_H - (v - self.y_min) / (self.y_max - self.y_min).max(1e-9) * PANEL_H
    }
}

fn svg(rows: &[Row]) -> String {
    let width = 2.0 * (PANEL_W + 2.0 * MARGIN) + 40.0;
    let height = PANEL_H + 2.0 * MARGIN + 40.0;
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#);
    time_panel(&mut out, rows);
    scaling_panel(&mut out, rows);
    out.push_str("</svg>\n");
    out
}

fn n_range(rows: &[Row]) -> (f64, f64) {
    let min = rows.iter().map(|r| r.n).min().unwrap_or(1) as f64;
    let max = rows.iter().map(|r| r.n).max().unwrap_or(1) as f64;
    if min == max {
        (min - 1.0, max + 1.0)
    } else {
        (min, max)
    }
}

fn time_panel(out: &mut String, rows: &[Row]) {
    let mut series: BTreeMap<String, BTreeMap<u32, f64>> = BTreeMap::new();
    for r in rows {
        series
            .entry(format!("{} {}t", r.engine, r.threads))
            .or_default()
            .insert(r.n, r.seconds);
        series
            .entry("textbook 1t".into())
            .or_default()
            .insert(r.n, r.textbook);
    }
    let logs: Vec<f64> = series
        .values()
        .flat_map(|s| s.values())
        .map(|&t| t.max(1e-6).log10())
        .collect();
    let (x_min, x_max) = n_range(rows);
    let axes = Axes {
        x0: 0.0,
        x_min,
        x_max,
        y_min: logs.iter().cloned().fold(f64::MAX, f64::min).floor(),
        y_max: logs.iter().cloned().fold(f64::MIN, f64::max).ceil(),
    };
    frame(out, &axes, "time against n", "n", "seconds (log scale)");
    let mut tick = axes.y_min;
    while tick <= axes.y_max + 1e-9 {
        let label = format!("{}", 10f64.powf(tick));
        y_tick(out, &axes, tick, &label);
        tick += 1.0;
    }
    x_ticks(out, &axes, rows);
    for (i, (name, points)) in series.iter().enumerate() {
        let pts: Vec<(f64, f64)> = points
            .iter()
            .map(|(&n, &t)| (f64::from(n), t.max(1e-6).log10()))
            .collect();
        line(out, &axes, &pts, COLORS[i % COLORS.len()], name, i);
    }
}

fn scaling_panel(out: &mut String, rows: &[Row]) {
    let one: BTreeMap<(String, u32), f64> = rows
        .iter()
        .filter(|r| r.threads == 1)
        .map(|r| ((r.engine.clone(), r.n), r.seconds))
        .collect();
    let mut series: BTreeMap<String, BTreeMap<u32, f64>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.threads > 1) {
        if let Some(&base) = one.get(&(r.engine.clone(), r.n)) {
            series
                .entry(format!("{} {}t", r.engine, r.threads))
                .or_default()
                .insert(r.n, base / r.seconds);
        }
    }
    let max_threads = rows.iter().map(|r| r.threads).max().unwrap_or(1) as f64;
    let (x_min, x_max) = n_range(rows);
    let axes = Axes {
        x0: PANEL_W + 2.0 * MARGIN + 40.0,
        x_min,
        x_max,
        y_min: 0.0,
        y_max: max_threads.max(2.0),
    };
    frame(out, &axes, "thread scaling", "n", "speed-up over 1 thread");
    for t in 0..=(axes.y_max as u32) {
        y_tick(out, &axes, f64::from(t), &t.to_string());
    }
    x_ticks(out, &axes, rows);
    // The ideal: T threads, T times faster.
    let _ = writeln!(
        out,
        r##"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="#999" stroke-dasharray="4 4"/>"##,
        axes.x(x_min),
        axes.x(x_max),
        y = axes.y(max_threads)
    );
    for (i, (name, points)) in series.iter().enumerate() {
        let pts: Vec<(f64, f64)> = points.iter().map(|(&n, &s)| (f64::from(n), s)).collect();
        line(out, &axes, &pts, COLORS[i % COLORS.len()], name, i);
    }
}

fn frame(out: &mut String, axes: &Axes, title: &str, x_label: &str, y_label: &str) {
    let (left, top) = (axes.x0 + MARGIN, MARGIN);
    let _ = writeln!(
        out,
        r##"<rect x="{left}" y="{top}" width="{PANEL_W}" height="{PANEL_H}" fill="none" stroke="#333"/>"##
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle" font-size="14">{title}</text>"#,
        left + PANEL_W / 2.0,
        top - 20.0
    );
    let _ = writeln!(
        out,
        r#"<text x="{}" y="{}" text-anchor="middle">{x_label}</text>"#,
        left + PANEL_W / 2.0,
        top + PANEL_H + 35.0
    );
    let _ = writeln!(
        out,
        r#"<text transform="translate({},{}) rotate(-90)" text-anchor="middle">{y_label}</text>"#,
        axes.x0 + 15.0,
        top + PANEL_H / 2.0
    );
}

fn y_tick(out: &mut String, axes: &Axes, value: f64, label: &str) {
    let (x, y) = (axes.x0 + MARGIN, axes.y(value));
    let _ = writeln!(
        out,
        r##"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="#eee"/><text x="{}" y="{}" text-anchor="end">{label}</text>"##,
        x + PANEL_W,
        x - 5.0,
        y + 4.0
    );
}

fn x_ticks(out: &mut String, axes: &Axes, rows: &[Row]) {
    let mut sizes: Vec<u32> = rows.iter().map(|r| r.n).collect();
    sizes.sort_unstable();
    sizes.dedup();
    for n in sizes {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle">{n}</text>"#,
            axes.x(f64::from(n)),
            MARGIN + PANEL_H + 16.0
        );
    }
}

fn line(out: &mut String, axes: &Axes, points: &[(f64, f64)], color: &str, name: &str, i: usize) {
    let path: Vec<String> = points
        .iter()
        .map(|&(x, y)| format!("{:.1},{:.1}", axes.x(x), axes.y(y)))
        .collect();
    let _ = writeln!(
        out,
        r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2"/>"#,
        path.join(" ")
    );
    for p in &path {
        let (x, y) = p.split_once(',').unwrap_or(("0", "0"));
        let _ = writeln!(out, r#"<circle cx="{x}" cy="{y}" r="3" fill="{color}"/>"#);
    }
    let (lx, ly) = (axes.x0 + MARGIN + 10.0, MARGIN + 15.0 + 16.0 * i as f64);
    let _ = writeln!(
        out,
        r#"<rect x="{lx}" y="{}" width="12" height="4" fill="{color}"/><text x="{}" y="{}">{name}</text>"#,
        ly - 6.0,
        lx + 18.0,
        ly
    );
}
