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

/// The records of a CSV text, each its fields, as RFC 4180 writes them (and `frontier.sh`
/// does): a field in double quotes holds commas, line breaks and doubled double quotes, each
/// pair one quote of the field. Read by the `csv` crate, which knows the rules better than a
/// reader written here would.
fn records(text: &str) -> Result<Vec<Vec<String>>, String> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .map(|record| {
            record
                .map(|r| r.iter().map(str::to_string).collect())
                .map_err(|e| e.to_string())
        })
        .collect()
}

/// The runs of one CSV, by label in the order they come, each with its figures per solution
/// (rows without one, past the known counts, are left out).
fn read(path: &str) -> Result<Vec<(String, Vec<Point>)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    runs(&text)
}

/// The runs of the CSV text `text`, as [`read`] gives them.
fn runs(text: &str) -> Result<Vec<(String, Vec<Point>)>, String> {
    let mut rows = records(text)?.into_iter();
    let header = rows.next().ok_or("empty")?;
    let column = |name: &str| {
        header.iter().position(|h| h == name).ok_or(format!(
            "no column {name}: not a CSV of scripts/frontier.sh"
        ))
    };
    let (label, n, kind) = (column("label")?, column("n")?, column("kind")?);
    let (error, per) = (column("error")?, column("core_ns_per_solution")?);
    let mut runs: BTreeMap<usize, (String, Vec<Point>)> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for (i, f) in rows.enumerate() {
        let bad = || format!("row {}: {f:?}", i + 2);
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

/// `cargo test --release --example frontier_chart`
#[cfg(test)]
mod tests {
    use super::{records, runs};

    /// Regression: a field was split on every comma outside quotes and its quotes dropped, so
    /// that `frontier.sh -l 'the "fast", box'`'s label, written `"the ""fast"", box"`, came
    /// back as `the fast, box`. Doubled quotes are one quote, a quoted comma or line break is
    /// the field's own, and a CRLF ends a line as LF does.
    #[test]
    fn quoted_fields_are_read_as_rfc_4180_writes_them() {
        let text = "a,b,c\r\n\"the \"\"fast\"\", box\",\"two\nlines\",\"\"\nplain,\"\"\"\",x";
        let want = [
            vec!["a", "b", "c"],
            vec!["the \"fast\", box", "two\nlines", ""],
            vec!["plain", "\"", "x"],
        ];
        assert_eq!(records(text).unwrap(), want);
    }

    #[test]
    fn a_quoted_label_names_its_run() {
        let text = "label,n,kind,error,core_ns_per_solution\n\
                    \"the \"\"fast\"\", box\",16,count,0,10.39\n\
                    \"the \"\"fast\"\", box\",22,estimate,0.083,2.144\n\
                    other,16,count,0,\n";
        let runs = runs(text).unwrap();
        let labels: Vec<&str> = runs.iter().map(|(label, _)| label.as_str()).collect();
        assert_eq!(labels, ["the \"fast\", box", "other"]);
        let points = &runs[0].1;
        assert_eq!(points.iter().map(|p| p.n).collect::<Vec<_>>(), [16, 22]);
        assert!(points[1].estimate && points[1].error == 0.083);
        assert!(runs[1].1.is_empty());
    }
}
