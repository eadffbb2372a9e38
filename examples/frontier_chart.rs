//! Draws the CSVs of `scripts/frontier.sh` as one SVG chart with plotters (its SVG backend
//! only: the viewer lays the text out): core-ns per solution against n, one line per run (a
//! build or a machine, by its label), full counts as filled circles and estimates as hollow
//! ones with their 95 % error bars. A flat line is an engine whose cost per solution holds as
//! n grows; lines of two machines sit apart by their cores' speed.
//!
//! `cargo run --release --example frontier_chart -- OUT.svg A.csv [B.csv ...]`

use plotters::prelude::*;
use std::collections::BTreeMap;
use std::error::Error;

/// One figure of a run.
struct Point {
    n: u32,
    estimate: bool,
    per_solution: f64,
    error: f64,
}

const SIZE: (u32, u32) = (900, 560);
const FONT: &str = "sans-serif";
/// One colour per run, in the order the files and their rows name them (Tableau 10, less its
/// grey).
const COLORS: [u32; 9] = [
    0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0xbcbd22, 0x17becf,
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: frontier_chart OUT.svg FRONTIER.csv [MORE.csv ...]");
        std::process::exit(2);
    }
    let mut runs: Vec<(String, Vec<Point>)> = Vec::new();
    for path in &args[2..] {
        let read = read(path).unwrap_or_else(|e| fail(&format!("{path}: {e}")));
        for (label, points) in read {
            match runs.iter_mut().find(|(l, _)| *l == label) {
                Some((_, existing)) => existing.extend(points),
                None => runs.push((label, points)),
            }
        }
    }
    if runs.iter().all(|(_, points)| points.is_empty()) {
        fail("no figure per solution to draw");
    }
    let svg = svg(&runs).unwrap_or_else(|e| fail(&format!("{}: {e}", args[1])));
    if let Err(e) = std::fs::write(&args[1], svg) {
        fail(&format!("{}: {e}", args[1]));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    std::process::exit(1);
}

/// The fields of a CSV line: commas inside double quotes are the field's own.
fn fields(line: &str) -> Vec<String> {
    let (mut out, mut field, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut field)),
            c => field.push(c),
        }
    }
    out.push(field);
    out
}

/// The runs of one CSV, by label in the order they come, each with its figures per solution
/// (rows without one, past the known counts, are left out).
fn read(path: &str) -> Result<Vec<(String, Vec<Point>)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let mut lines = text.lines();
    let header = fields(lines.next().ok_or("empty")?);
    let column = |name: &str| {
        header.iter().position(|h| h == name).ok_or(format!(
            "no column {name}: not a CSV of scripts/frontier.sh"
        ))
    };
    let (label, n, kind) = (column("label")?, column("n")?, column("kind")?);
    let (error, per) = (column("error")?, column("core_ns_per_solution")?);
    let mut runs: BTreeMap<usize, (String, Vec<Point>)> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for (i, line) in lines.enumerate() {
        let f = fields(line);
        let bad = || format!("line {}: {line}", i + 2);
        if f.len() != header.len() {
            return Err(bad());
        }
        let place = match order.iter().position(|l| *l == f[label]) {
            Some(place) => place,
            None => {
                order.push(f[label].clone());
                order.len() - 1
            }
        };
        let run = runs
            .entry(place)
            .or_insert_with(|| (f[label].clone(), Vec::new()));
        if f[per].is_empty() {
            continue;
        }
        let value = |s: &str| match s.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
            _ => Err(bad()),
        };
        run.1.push(Point {
            n: f[n].parse().map_err(|_| bad())?,
            estimate: f[kind] == "estimate",
            per_solution: value(&f[per])?,
            error: value(&f[error])?,
        });
    }
    Ok(runs.into_values().collect())
}

fn color(i: usize) -> RGBColor {
    let rgb = COLORS[i % COLORS.len()];
    RGBColor((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8)
}

fn svg(runs: &[(String, Vec<Point>)]) -> Result<String, Box<dyn Error>> {
    let points = || runs.iter().flat_map(|(_, p)| p);
    let lo = points().map(|p| p.n).min().unwrap_or(0);
    let hi = points().map(|p| p.n).max().unwrap_or(0);
    let top = points()
        .map(|p| p.per_solution * (1.0 + p.error))
        .fold(0.0, f64::max);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Cost per solution: core-ns against n (scripts/frontier.sh)",
                (FONT, 20),
            )
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(
                (f64::from(lo) - 0.5)..(f64::from(hi) + 0.5),
                0.0..(top * 1.15).max(1e-9),
            )?;
        chart
            .configure_mesh()
            .x_desc("n")
            .y_desc("core-ns per solution")
            .x_labels((hi - lo + 2) as usize)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .label_style((FONT, 14))
            .draw()?;
        for (i, (label, points)) in runs.iter().enumerate() {
            let c = color(i);
            let mut sorted: Vec<&Point> = points.iter().collect();
            sorted.sort_by_key(|p| p.n);
            let line: Vec<(f64, f64)> = sorted
                .iter()
                .map(|p| (f64::from(p.n), p.per_solution))
                .collect();
            chart
                .draw_series(LineSeries::new(line, c.stroke_width(2)))?
                .label(label.as_str())
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], c.stroke_width(2)));
            for p in sorted {
                let (x, y) = (f64::from(p.n), p.per_solution);
                if p.estimate {
                    let bar = [(x, y * (1.0 - p.error)), (x, y * (1.0 + p.error))];
                    chart.draw_series(std::iter::once(PathElement::new(bar, c.stroke_width(1))))?;
                    chart.draw_series(std::iter::once(Circle::new(
                        (x, y),
                        5,
                        c.stroke_width(2),
                    )))?;
                } else {
                    chart.draw_series(std::iter::once(Circle::new((x, y), 5, c.filled())))?;
                }
            }
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font((FONT, 14))
            .draw()?;
        root.present()?;
    }
    Ok(out)
}
