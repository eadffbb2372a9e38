//! Draws the CSV of `scripts/bench.sh` as an SVG chart with plotters (its SVG backend only: no
//! font files, the viewer lays the text out). On the left, time against n on a logarithmic
//! scale for each engine and thread count and the textbook counter; on the right, thread
//! scaling (time on one thread over time on T threads) for each engine and n, under the ideal
//! (T threads, T times faster). A series looks the same in both panels: the colour says the
//! engine, the marker and the line the thread count, and one legend under the panels says so.
//!
//! `cargo run --release --example chart -- bench.csv bench.svg`

use plotters::coord::{CoordTranslate, Shift};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::BTreeMap;
use std::error::Error;
use std::ops::Range;

/// One row of the CSV.
struct Row {
    n: u32,
    engine: String,
    threads: u32,
    seconds: f64,
    textbook: f64,
}

const SIZE: (u32, u32) = (1200, 560);
const LEGEND_H: u32 = 70;
const FONT: &str = "sans-serif";
/// One colour per engine, in the order the CSV names them (Tableau 10, less its grey).
const ENGINE_COLORS: [u32; 9] = [
    0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0xbcbd22, 0x17becf,
];
/// The textbook counter is no engine of ours: black.
const TEXTBOOK: RGBColor = RGBColor(0, 0, 0);
/// The ideal-scaling lines: light grey, short dashes, no markers, so that no series is taken for one.
const IDEAL: RGBColor = RGBColor(0x99, 0x99, 0x99);
const IDEAL_DASH: Option<(u32, u32)> = Some((6, 4));
/// The thread-count samples of the legend and the labels of the ideal lines: no engine's colour.
const NEUTRAL: RGBColor = RGBColor(0x44, 0x44, 0x44);
/// Dash and gap, in pixels, of the line for each thread count (by rank; `None` is solid).
const DASHES: [Option<(u32, u32)>; 4] = [None, Some((10, 5)), Some((3, 4)), Some((18, 5))];
/// Times of a series by n (a later row for the same n wins).
type Series = BTreeMap<u32, f64>;

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
    let svg = svg(&rows).unwrap_or_else(|e| fail(&format!("{}: {e}", args[2])));
    if let Err(e) = std::fs::write(&args[2], svg) {
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
        // A time must be a real duration: NaN or infinity would bend the axes.
        let seconds = |s: &str| match s.parse::<f64>() {
            Ok(t) if t.is_finite() && t >= 0.0 => Ok(t),
            _ => Err(bad()),
        };
        if f.len() < 5 || f[1].is_empty() {
            return Err(bad());
        }
        rows.push(Row {
            n: f[0].parse().map_err(|_| bad())?,
            engine: f[1].to_string(),
            threads: f[2].parse().ok().filter(|&t| t > 0).ok_or_else(bad)?,
            seconds: seconds(f[3])?,
            textbook: seconds(f[4])?,
        });
    }
    Ok(rows)
}

/// How each series is drawn, shared by both panels so that a series keeps its look.
struct Looks {
    /// Engines in the order the CSV first names them; the index picks the colour.
    engines: Vec<String>,
    /// Thread counts in the CSV, ascending.
    threads: Vec<u32>,
}

impl Looks {
    fn new(rows: &[Row]) -> Looks {
        let mut engines: Vec<String> = Vec::new();
        for r in rows {
            if !engines.contains(&r.engine) {
                engines.push(r.engine.clone());
            }
        }
        let mut threads: Vec<u32> = rows.iter().map(|r| r.threads).collect();
        threads.sort_unstable();
        threads.dedup();
        Looks { engines, threads }
    }

    /// The engine's place in the CSV: it orders the series and picks the colour.
    fn engine(&self, name: &str) -> usize {
        self.engines.iter().position(|e| e == name).unwrap_or(0)
    }

    fn color(&self, engine: usize) -> RGBColor {
        let rgb = ENGINE_COLORS[engine % ENGINE_COLORS.len()];
        RGBColor((rgb >> 16) as u8, (rgb >> 8) as u8, rgb as u8)
    }

    /// The rank of a thread count among those of the CSV and 1 (the textbook counter's), so
    /// that one thread always gets the first look, whether or not the CSV has 1-thread runs.
    fn rank(&self, threads: u32) -> usize {
        let below = self.threads.iter().filter(|&&t| t < threads).count();
        if threads > 1 && !self.threads.contains(&1) {
            below + 1
        } else {
            below
        }
    }
}

/// A line through `points`: solid, or dashed as `dash` (dash, gap) says.
fn draw_path<CT: CoordTranslate>(
    area: &DrawingArea<SVGBackend<'_>, CT>,
    points: Vec<CT::From>,
    dash: Option<(u32, u32)>,
    color: RGBColor,
) -> Result<(), Box<dyn Error>>
where
    CT::From: Clone,
{
    let style = color.stroke_width(2);
    match dash {
        None => area.draw(&PathElement::new(points, style))?,
        Some((dash, gap)) => area.draw(&DashedPathElement::new(points, dash, gap, style))?,
    }
    Ok(())
}

/// Markers for the thread count of rank `rank` at `points`: filled circle, triangle, square,
/// then the same hollow.
fn draw_markers<CT: CoordTranslate>(
    area: &DrawingArea<SVGBackend<'_>, CT>,
    points: impl IntoIterator<Item = CT::From>,
    rank: usize,
    color: RGBColor,
) -> Result<(), Box<dyn Error>> {
    let style = if rank % 6 < 3 {
        color.filled()
    } else {
        color.stroke_width(2)
    };
    for at in points {
        let spot = EmptyElement::at(at);
        match rank % 3 {
            0 => area.draw(&(spot + Circle::new((0, 0), 4, style)))?,
            1 => area.draw(&(spot + TriangleMarker::new((0, 0), 6, style)))?,
            _ => area.draw(&(spot + Rectangle::new([(-4, -4), (4, 4)], style)))?,
        }
    }
    Ok(())
}

/// One series on a panel: its line and its markers, in the looks of its thread count's rank.
fn draw_series<CT: CoordTranslate<From = (f64, f64)>>(
    area: &DrawingArea<SVGBackend<'_>, CT>,
    series: &Series,
    rank: usize,
    color: RGBColor,
) -> Result<(), Box<dyn Error>> {
    let points: Vec<(f64, f64)> = series.iter().map(|(&n, &v)| (f64::from(n), v)).collect();
    draw_path(area, points.clone(), DASHES[rank % DASHES.len()], color)?;
    draw_markers(area, points, rank, color)
}

/// The x axis of both panels: n, and how many ticks it takes to have one at each whole n.
fn n_axis(rows: &[Row]) -> (Range<f64>, usize) {
    let lo = rows.iter().map(|r| r.n).min().unwrap_or(0);
    let hi = rows.iter().map(|r| r.n).max().unwrap_or(0);
    // Some room either side, so that the end markers stay off the frame.
    let pad = (f64::from(hi - lo) * 0.04).max(0.5);
    (
        f64::from(lo) - pad..f64::from(hi) + pad,
        (hi - lo) as usize + 1,
    )
}

/// "10 ms", "1 s": the labels of the log-scale time axis, at powers of ten.
fn duration(seconds: f64) -> String {
    let units = [(1.0, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")];
    let (scale, unit) = units
        .into_iter()
        .find(|&(scale, _)| seconds >= scale * 0.999)
        .unwrap_or((1e-9, "ns"));
    format!("{} {unit}", (seconds / scale).round())
}

/// The log scale needs positive times: a run too short to time counts as a microsecond.
fn time(seconds: f64) -> f64 {
    seconds.max(1e-6)
}

/// Left panel: seconds against n, log scale, every engine and thread count and the textbook.
fn time_panel(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    rows: &[Row],
    looks: &Looks,
) -> Result<(), Box<dyn Error>> {
    let mut series: BTreeMap<(usize, u32), Series> = BTreeMap::new();
    let mut textbook = Series::new();
    for r in rows {
        series
            .entry((looks.engine(&r.engine), r.threads))
            .or_default()
            .insert(r.n, time(r.seconds));
        textbook.insert(r.n, time(r.textbook));
    }
    // Whole decades at both ends, each labelled; 2 to 9 times each as light lines.
    let all = || {
        rows.iter()
            .flat_map(|r| [time(r.seconds), time(r.textbook)])
    };
    let lo = all().fold(f64::MAX, f64::min).log10().floor() as i32;
    let hi = (all().fold(f64::MIN, f64::max).log10().ceil() as i32).max(lo + 1);
    let decades: Vec<f64> = (lo..=hi).map(|e| 10f64.powi(e)).collect();
    let minor: Vec<f64> = (lo..hi)
        .flat_map(|e| (2..10).map(move |k| f64::from(k) * 10f64.powi(e)))
        .collect();
    let y = (10f64.powi(lo)..10f64.powi(hi))
        .log_scale()
        .with_key_points(decades)
        .with_light_points(minor);
    let (x, x_ticks) = n_axis(rows);
    let mut chart = ChartBuilder::on(area)
        .caption("time against n", (FONT, 22))
        .margin(12)
        .margin_right(24)
        .x_label_area_size(44)
        .y_label_area_size(70)
        .build_cartesian_2d(x, y)?;
    chart
        .configure_mesh()
        .x_desc("n (board size)")
        .y_desc("seconds (log scale)")
        .x_labels(x_ticks)
        .x_max_light_lines(0)
        .x_label_formatter(&|&n| format!("{n:.0}"))
        .y_label_formatter(&|&t| duration(t))
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 16))
        .draw()?;
    let plot = chart.plotting_area();
    draw_series(plot, &textbook, looks.rank(1), TEXTBOOK)?;
    for ((engine, threads), series) in &series {
        draw_series(plot, series, looks.rank(*threads), looks.color(*engine))?;
    }
    Ok(())
}

/// Right panel: time on one thread over time on T threads, against n, for each engine and
/// T > 1, under the ideal line of each T.
fn scaling_panel(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    rows: &[Row],
    looks: &Looks,
) -> Result<(), Box<dyn Error>> {
    let one: BTreeMap<(&str, u32), f64> = rows
        .iter()
        .filter(|r| r.threads == 1)
        .map(|r| ((r.engine.as_str(), r.n), time(r.seconds)))
        .collect();
    let mut series: BTreeMap<(usize, u32), Series> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.threads > 1) {
        if let Some(&base) = one.get(&(r.engine.as_str(), r.n)) {
            series
                .entry((looks.engine(&r.engine), r.threads))
                .or_default()
                .insert(r.n, base / time(r.seconds));
        }
    }
    let ideals: Vec<u32> = looks.threads.iter().copied().filter(|&t| t > 1).collect();
    let top = series
        .values()
        .flat_map(|s| s.values().copied())
        .chain(ideals.iter().map(|&t| f64::from(t)))
        .fold(2.0, f64::max);
    let (x, x_ticks) = n_axis(rows);
    let (x0, x1) = (x.start, x.end);
    let mut chart = ChartBuilder::on(area)
        .caption("thread scaling", (FONT, 22))
        .margin(12)
        // Room for the ideal lines' labels, right of the plot.
        .margin_right(130)
        .x_label_area_size(44)
        .y_label_area_size(50)
        .build_cartesian_2d(x, 0.0..(top * 1.1).ceil())?;
    chart
        .configure_mesh()
        .x_desc("n (board size)")
        .y_desc("speed-up: time on 1 thread / time on T")
        .x_labels(x_ticks)
        .x_max_light_lines(0)
        .y_max_light_lines(1)
        .x_label_formatter(&|&n| format!("{n:.0}"))
        .y_label_formatter(&|s| format!("{s}"))
        .label_style((FONT, 15))
        .axis_desc_style((FONT, 16))
        .draw()?;
    let plot = chart.plotting_area();
    // Labels go in the panel's margin, in its own pixels: plot pixels less the panel's corner.
    let corner = area.get_base_pixel();
    let pixel = |at: (f64, f64)| {
        let (x, y) = chart.backend_coord(&at);
        (x - corner.0, y - corner.1)
    };
    let label = |text: String, (x, y): (i32, i32), h: HPos| {
        let style = TextStyle::from((FONT, 15))
            .color(&NEUTRAL)
            .pos(Pos::new(h, VPos::Center));
        area.draw(&Text::new(text, (x, y), style))
    };
    for &t in &ideals {
        let y = f64::from(t);
        draw_path(plot, vec![(x0, y), (x1, y)], IDEAL_DASH, IDEAL)?;
        let (px, py) = pixel((x1, y));
        label(format!("ideal, {t} threads"), (px + 6, py), HPos::Left)?;
    }
    if series.is_empty() {
        let text = "no engine ran on 1 thread and on more to compare".to_string();
        label(text, pixel(((x0 + x1) / 2.0, top / 2.0)), HPos::Center)?;
    }
    for ((engine, threads), series) in &series {
        draw_series(plot, series, looks.rank(*threads), looks.color(*engine))?;
    }
    Ok(())
}

/// What a legend entry shows beside its words.
enum Sample {
    /// A colour: an engine's, or the textbook counter's.
    Colour(RGBColor),
    /// The marker and line of a thread count, of this rank.
    Threads(usize),
    /// The ideal-scaling line.
    Ideal,
}

/// The legend under both panels: a row for the colours (engines, and the textbook counter in
/// black), a row for the markers and lines (thread counts, and the ideal's grey dashes).
fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    looks: &Looks,
) -> Result<(), Box<dyn Error>> {
    let text = TextStyle::from((FONT, 15)).pos(Pos::new(HPos::Left, VPos::Center));
    let bold = TextStyle::from((FONT, 15).into_font().style(FontStyle::Bold))
        .pos(Pos::new(HPos::Left, VPos::Center));
    let row = |y: i32, title: &str, entries: Vec<(String, Sample)>| -> Result<(), Box<dyn Error>> {
        area.draw(&Text::new(title, (20, y), &bold))?;
        let mut x = 250;
        for (words, sample) in entries {
            let line = vec![(x, y), (x + 36, y)];
            match sample {
                Sample::Colour(color) => area.draw(&Rectangle::new(
                    [(x + 6, y - 6), (x + 30, y + 6)],
                    color.filled(),
                ))?,
                Sample::Threads(rank) => {
                    draw_path(area, line, DASHES[rank % DASHES.len()], NEUTRAL)?;
                    draw_markers(area, [(x + 18, y)], rank, NEUTRAL)?;
                }
                Sample::Ideal => draw_path(area, line, IDEAL_DASH, IDEAL)?,
            }
            area.draw(&Text::new(words.as_str(), (x + 44, y), &text))?;
            // The naive font's width estimate: rough, hence the wide gap.
            let (w, _) = area.estimate_text_size(&words, &text)?;
            x += 44 + w as i32 + 28;
        }
        Ok(())
    };
    let mut engines: Vec<_> = (0..looks.engines.len())
        .map(|e| {
            let words = format!("{} engine", looks.engines[e]);
            (words, Sample::Colour(looks.color(e)))
        })
        .collect();
    let words = "textbook counter (1 thread)".to_string();
    engines.push((words, Sample::Colour(TEXTBOOK)));
    row(22, "colour: engine", engines)?;
    let mut threads: Vec<_> = looks
        .threads
        .iter()
        .map(|&t| {
            let words = if t == 1 {
                "1 thread".into()
            } else {
                format!("{t} threads")
            };
            (words, Sample::Threads(looks.rank(t)))
        })
        .collect();
    let words = "ideal scaling (T threads, T times faster)".to_string();
    threads.push((words, Sample::Ideal));
    row(52, "marker and line: threads", threads)?;
    Ok(())
}

/// The whole chart: both panels side by side, the legend under them.
fn svg(rows: &[Row]) -> Result<String, Box<dyn Error>> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        root.fill(&WHITE)?;
        let (panels, legend) = root.split_vertically(SIZE.1 - LEGEND_H);
        let (left, right) = panels.split_horizontally(SIZE.0 / 2);
        let looks = Looks::new(rows);
        time_panel(&left, rows, &looks)?;
        scaling_panel(&right, rows, &looks)?;
        draw_legend(&legend, &looks)?;
        root.present()?;
    }
    Ok(out)
}
