//! SVG plots: a [`Figure`] is series of (x, mean, sd) points on linear or log axes, drawn
//! as lines with markers and error bars (or bare lines, e.g. CDFs), the legend beside the
//! chart. `plot.svg` of `fabsim reproduce` is the experiment's y against x, one line per
//! series, mean and one standard deviation over seeds; `fabsim plot` draws FCT CDFs and
//! slowdowns. plotters with its SVG backend only: text is written as SVG `<text>` elements
//! (no font files are read).

use plotters::coord::combinators::{BindKeyPoints, WithKeyPoints};
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use super::{fmt_num, Experiment, Plot, Table};
use fabsim::metrics::stats::mean_sd;

/// One plotted line: (x, mean y, standard deviation of y) per x, in x order.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64, f64)>,
}

/// The plotted data of `exp`'s main plot: the x categories (empty when x is numeric) and
/// the series.
#[cfg(test)]
pub fn series(exp: &Experiment, table: &Table) -> (Vec<String>, Vec<Series>) {
    panel_series(&exp.plot, table)
}

/// The x categories and series of plot `p`.
fn panel_series(p: &Plot, table: &Table) -> (Vec<String>, Vec<Series>) {
    let numeric = table
        .iter()
        .all(|r| r.get(p.x).is_none_or(|v| v.parse::<f64>().is_ok()));
    let mut cats: Vec<String> = vec![];
    // (series name, (x, the y values at x)).
    type Group = (String, Vec<(f64, Vec<f64>)>);
    let mut groups: Vec<Group> = vec![];
    for r in table.iter() {
        let (Some(xs), Some(y)) = (r.get(p.x), (p.y)(&r)) else {
            continue;
        };
        let x = if numeric {
            xs.parse::<f64>().expect("checked numeric") * p.x_scale
        } else {
            match cats.iter().position(|c| c == xs) {
                Some(i) => i as f64,
                None => {
                    cats.push(xs.to_string());
                    (cats.len() - 1) as f64
                }
            }
        };
        let name = (p.series)(&r);
        let gi = match groups.iter().position(|g| g.0 == name) {
            Some(i) => i,
            None => {
                groups.push((name, vec![]));
                groups.len() - 1
            }
        };
        let pts = &mut groups[gi].1;
        match pts.iter_mut().find(|(px, _)| *px == x) {
            Some((_, ys)) => ys.push(y),
            None => pts.push((x, vec![y])),
        }
    }
    let series = groups
        .into_iter()
        .map(|(name, mut pts)| {
            pts.sort_by(|a, b| a.0.total_cmp(&b.0));
            let points = pts
                .into_iter()
                .map(|(x, ys)| {
                    let (m, sd) = mean_sd(&ys);
                    (x, m, sd)
                })
                .collect();
            Series { name, points }
        })
        .collect();
    (cats, series)
}

/// Range of `vals` (and `span`, when given: the paper's fixed axis, e.g. 0-100%) with a
/// margin: 5% of the span on a linear axis, a factor 1.25 on a log axis (values <= 0 are
/// left out there); a unit around a single value.
fn range(
    vals: impl Iterator<Item = f64>,
    log: bool,
    span: Option<(f64, f64)>,
) -> std::ops::Range<f64> {
    let (lo, hi) = vals
        .chain(span.into_iter().flat_map(|(a, b)| [a, b]))
        .filter(|v| v.is_finite() && (!log || *v > 0.0))
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
            (l.min(v), h.max(v))
        });
    if !lo.is_finite() {
        return if log { 1.0..10.0 } else { 0.0..1.0 };
    }
    if log {
        return (lo / 1.25)..(hi * 1.25);
    }
    let pad = if hi > lo {
        0.05 * (hi - lo)
    } else {
        0.5 * lo.abs().max(1.0)
    };
    (lo - pad)..(hi + pad)
}

/// A log axis over `r` with ticks at 1, 2 and 5 times the powers of ten inside it, or `None`
/// when `r` spans less than a decade: a log axis there would show one tick or none, so the
/// axis is linear.
fn log_axis(r: &std::ops::Range<f64>) -> Option<WithKeyPoints<LogCoord<f64>>> {
    if !(r.start > 0.0 && r.end >= 10.0 * r.start) {
        return None;
    }
    let first = r.start.log10().floor() as i32;
    let last = r.end.log10().ceil() as i32;
    let ticks: Vec<f64> = (first..=last)
        .flat_map(|e| [1.0, 2.0, 5.0].map(|m| m * 10f64.powi(e)))
        .filter(|t| (r.start..=r.end).contains(t))
        .collect();
    Some(r.clone().log_scale().with_key_points(ticks))
}

/// The lower end of an error bar: mean - sd; on a log axis a bar reaching zero or below is
/// cut at the axis' lower end `floor`.
fn bar_low(m: f64, sd: f64, log: bool, floor: f64) -> f64 {
    if log && m - sd <= floor {
        floor
    } else {
        m - sd
    }
}

/// The marker of series `i`: filled circles, hollow circles, triangles and crosses in turn
/// (odd series also dashed), so that overlapping series stay distinguishable.
fn marker<C: Clone + 'static, DB: DrawingBackend>(
    c: C,
    i: usize,
    color: RGBAColor,
) -> DynElement<'static, DB, C> {
    match i % 4 {
        0 => Circle::new(c, 4, color.filled()).into_dyn(),
        1 => Circle::new(c, 4, color.stroke_width(2)).into_dyn(),
        2 => TriangleMarker::new(c, 5, color.filled()).into_dyn(),
        _ => Cross::new(c, 4, color.stroke_width(2)).into_dyn(),
    }
}

/// The width of one panel (pixels); the legend starts right of the last panel.
const LEGEND_X: u32 = 780;
const LEGEND_W: u32 = 220;

type Area<'a> = DrawingArea<SVGBackend<'a>, plotters::coord::Shift>;

/// What one panel of an SVG shows.
pub struct Figure<'a> {
    pub title: String,
    pub x_label: &'a str,
    pub y_label: &'a str,
    pub x_log: bool,
    pub y_log: bool,
    /// The x categories (empty when x is numeric: then x is the value itself).
    pub cats: Vec<String>,
    pub series: Vec<Series>,
    /// A marker at every point (else bare lines, for dense series such as CDFs).
    pub markers: bool,
    /// The y axis covers at least this range (the paper's 0-100% axes).
    pub y_span: Option<(f64, f64)>,
}

/// Draws the axes, markers, lines and error bars of `f` on `area` with x and y coordinates
/// `x`, `y` (linear or logarithmic ranges); `color` numbers a series by its name (the same
/// in every panel), `log_floor` is a log y axis' lower end; `caption`: the figure's title
/// over the chart.
fn chart<X, Y>(
    area: &Area,
    x: X,
    y: Y,
    f: &Figure,
    color: &dyn Fn(&str) -> usize,
    log_floor: Option<f64>,
    caption: bool,
) -> Result<(), String>
where
    X: AsRangedCoord<Value = f64>,
    Y: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64>,
    Y::CoordDescType: ValueFormatter<f64>,
{
    let (cats, series) = (&f.cats, &f.series);
    let mut builder = ChartBuilder::on(area);
    builder
        .margin(14)
        .x_label_area_size(48)
        .y_label_area_size(72);
    if caption {
        builder.caption(&f.title, ("sans-serif", 15));
    }
    let mut chart = builder
        .build_cartesian_2d(x, y)
        .map_err(|e| e.to_string())?;
    let fmt_x = |v: &f64| {
        if cats.is_empty() {
            return fmt_num(*v);
        }
        let i = v.round();
        if (v - i).abs() < 1e-6 && i >= 0.0 {
            cats.get(i as usize).cloned().unwrap_or_default()
        } else {
            String::new()
        }
    };
    let fmt_y = |v: &f64| fmt_num(*v);
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(f.x_label)
        .y_desc(f.y_label)
        .x_label_formatter(&fmt_x)
        .y_label_formatter(&fmt_y)
        .label_style(("sans-serif", 13));
    if !cats.is_empty() {
        mesh.x_labels(cats.len()).disable_x_mesh();
    }
    mesh.draw().map_err(|e| e.to_string())?;
    for s in series {
        let i = color(&s.name);
        let color = Palette99::pick(i).to_rgba();
        let xy: Vec<(f64, f64)> = s.points.iter().map(|&(x, m, _)| (x, m)).collect();
        // Categories are not ordered: markers and error bars only.
        if cats.is_empty() {
            let style = color.stroke_width(2);
            if i % 2 == 1 {
                chart
                    .draw_series(DashedLineSeries::new(xy.clone(), 8, 5, style))
                    .map_err(|e| e.to_string())?;
            } else {
                chart
                    .draw_series(LineSeries::new(xy.clone(), style))
                    .map_err(|e| e.to_string())?;
            }
        }
        if f.markers {
            chart
                .draw_series(xy.iter().map(|&c| marker(c, i, color)))
                .map_err(|e| e.to_string())?;
        }
        chart
            .draw_series(s.points.iter().filter(|q| q.2 > 0.0).map(|&(x, m, sd)| {
                let low = match log_floor {
                    Some(floor) => bar_low(m, sd, true, floor),
                    None => bar_low(m, sd, false, f64::NEG_INFINITY),
                };
                ErrorBar::new_vertical(x, low, m, m + sd, color.stroke_width(1), 8)
            }))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The legend, beside the charts so that it never hides data: one line and marker per
/// series name.
fn legend(area: &Area, names: &[String]) -> Result<(), String> {
    for (i, name) in names.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        let y = 30 + 20 * i as i32;
        area.draw(&PathElement::new(
            vec![(4, y), (24, y)],
            color.stroke_width(3),
        ))
        .map_err(|e| e.to_string())?;
        area.draw(&marker((14, y), i, color))
            .map_err(|e| e.to_string())?;
        area.draw(&Text::new(name.clone(), (30, y - 7), ("sans-serif", 13)))
            .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The figure of plot `p` on `table`.
fn figure<'a>(p: &'a Plot, table: &Table) -> Figure<'a> {
    let (cats, series) = panel_series(p, table);
    Figure {
        title: String::new(),
        x_label: p.x_label,
        y_label: p.y_label,
        x_log: p.x_log,
        y_log: p.y_log,
        cats,
        series,
        markers: true,
        y_span: p.y_span,
    }
}

/// Renders an experiment's plot and its further panels side by side as an SVG document.
pub fn render(exp: &Experiment, table: &Table) -> Result<String, String> {
    let figs: Vec<Figure> = std::iter::once(&exp.plot)
        .chain(&exp.panels)
        .map(|p| figure(p, table))
        .collect();
    let title = format!("{} {}: {}", exp.paper.name(), exp.figure, exp.title);
    render_panels(&title, &figs)
}

/// Renders a figure as an SVG document.
pub fn render_figure(f: &Figure) -> Result<String, String> {
    render_panels(&f.title, std::slice::from_ref(f))
}

/// Renders `figs` side by side under `title`, with one legend (a series keeps its colour
/// and marker in every panel); a panel's own title is drawn over it when there are several.
/// A log axis spanning less than a decade is drawn linear (see [`log_axis`]).
fn render_panels(title: &str, figs: &[Figure]) -> Result<String, String> {
    let mut names: Vec<String> = vec![];
    for s in figs.iter().flat_map(|f| &f.series) {
        if !names.contains(&s.name) {
            names.push(s.name.clone());
        }
    }
    let color = |name: &str| names.iter().position(|n| n == name).unwrap_or(0);
    let n = figs.len().max(1) as u32;
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (LEGEND_X * n + LEGEND_W, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let root = root
            .titled(title, ("sans-serif", 18))
            .map_err(|e| e.to_string())?;
        let (plots, legend_area) = root.split_horizontally(LEGEND_X * n);
        let areas = plots.split_evenly((1, n as usize));
        for (f, area) in figs.iter().zip(&areas) {
            let xl = f.x_log && f.cats.is_empty();
            let pts = || f.series.iter().flat_map(|s| s.points.iter());
            let mut xr = if f.cats.is_empty() {
                range(pts().map(|&(x, _, _)| x), xl, None)
            } else {
                -0.5..(f.cats.len() as f64 - 0.5)
            };
            let ends = |&(_, m, sd): &(f64, f64, f64)| [m - sd, m, m + sd];
            let mut yr = range(pts().flat_map(ends), f.y_log, f.y_span);
            let (xlog, ylog) = (
                log_axis(&xr).filter(|_| xl),
                log_axis(&yr).filter(|_| f.y_log),
            );
            // A log range made linear: its margin as a linear axis'.
            if xl && xlog.is_none() {
                xr = range(pts().map(|&(x, _, _)| x), false, None);
            }
            if f.y_log && ylog.is_none() {
                yr = range(pts().flat_map(ends), false, f.y_span);
            }
            let floor = ylog.as_ref().map(|_| yr.start);
            let caption = figs.len() > 1;
            match (xlog, ylog) {
                (None, None) => chart(area, xr, yr, f, &color, floor, caption),
                (Some(x), None) => chart(area, x, yr, f, &color, floor, caption),
                (None, Some(y)) => chart(area, xr, y, f, &color, floor, caption),
                (Some(x), Some(y)) => chart(area, x, y, f, &color, floor, caption),
            }?;
        }
        legend(&legend_area, &names)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::super::{Paper, Plot, Source};
    use super::*;

    fn exp(x_log: bool) -> Experiment {
        Experiment {
            id: "test",
            paper: Paper::Ofan,
            figure: "Fig. 0",
            title: "test plot",
            varies: "",
            setup: "",
            source: Source::Compute(|_| Table::default()),
            plot: Plot {
                x: crate::reproduce::cols::Col::derived("m"),
                x_label: "message size [KiB]",
                x_log,
                y: |r| r.num(crate::reproduce::cols::Col::derived("q")),
                y_label: "max queue [KB]",
                y_log: false,
                y_span: None,
                x_scale: 1.0,
                series: |r| r.get(crate::reproduce::cols::LB).unwrap_or("?").to_string(),
            },
            claims: vec![],
            panels: vec![],
            synthetic: Table::default,
            table_readings: vec![],
            claim_readings: vec![],
            controls: vec![],
            readings: vec![],
        }
    }

    /// The trimmed contents of every `<text>` element.
    fn texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .map(|el| {
                let start = el.find('>').expect("tag end") + 1;
                let end = el.find("</text>").expect("closing tag");
                el[start..end].trim().to_string()
            })
            .collect()
    }

    /// (cx, cy) of every data marker (`<circle>` left of the legend), in document order.
    fn circles(svg: &str) -> Vec<(f64, f64)> {
        let attr = |el: &str, name: &str| -> f64 {
            let key = format!(" {name}=\"");
            let start = el.find(&key).expect("attribute") + key.len();
            let end = start + el[start..].find('"').expect("closing quote");
            el[start..end].parse().expect("number")
        };
        svg.split("<circle")
            .skip(1)
            .map(|el| (attr(el, "cx"), attr(el, "cy")))
            .filter(|&(cx, _)| cx < LEGEND_X as f64)
            .collect()
    }

    #[test]
    fn series_average_over_seeds_in_x_order() {
        let t = Table::from_csv("lb,m,q\nar,4,10\nar,1,2\nar,1,4\nofan,1,1\nofan,4,1\n");
        let (cats, s) = series(&exp(false), &t);
        assert!(cats.is_empty());
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].name, "ar");
        assert_eq!(s[0].points[0].0, 1.0);
        assert_eq!(s[0].points[0].1, 3.0);
        assert!((s[0].points[0].2 - 2f64.sqrt()).abs() < 1e-12);
        assert_eq!(s[0].points[1], (4.0, 10.0, 0.0));
        assert_eq!(s[1].points, vec![(1.0, 1.0, 0.0), (4.0, 1.0, 0.0)]);
    }

    #[test]
    fn svg_points_follow_the_data_and_text_is_svg_text() {
        let t =
            Table::from_csv("lb,m,q\nar,1,2\nar,4,10\nar,16,5\nofan,1,1\nofan,4,1\nofan,16,1\n");
        for x_log in [false, true] {
            let svg = render(&exp(x_log), &t).unwrap();
            let c = circles(&svg);
            // Three markers per series, in series order.
            assert_eq!(c.len(), 6, "{svg}");
            let (ar, of) = (&c[..3], &c[3..]);
            // x grows left to right; SVG y grows downwards: a larger value is higher up.
            assert!(ar[0].0 < ar[1].0 && ar[1].0 < ar[2].0);
            assert!(ar[1].1 < ar[2].1 && ar[2].1 < ar[0].1 && ar[0].1 < of[0].1);
            // Ofan is flat: the same pixel row.
            assert!(of.iter().all(|p| (p.1 - of[0].1).abs() < 1e-9));
            // Same x positions for both series.
            assert!(ar.iter().zip(of).all(|(a, b)| (a.0 - b.0).abs() < 1e-9));
            // On a log axis 1, 4, 16 are equally spaced.
            if x_log {
                assert!(((ar[1].0 - ar[0].0) - (ar[2].0 - ar[1].0)).abs() < 1.5);
            }
            let texts = texts(&svg);
            for text in ["message size [KiB]", "max queue [KB]", "ar", "ofan"] {
                assert!(texts.iter().any(|t| t == text), "{text} missing: {texts:?}");
            }
            assert!(texts.iter().any(|t| t.ends_with("test plot")));
            // The legend: one marker per series, right of the chart.
            assert_eq!(svg.matches("<circle").count(), 6 + 2);
        }
    }

    /// Error bars reach mean - sd on linear axes (not clipped at half the mean); on log axes
    /// a bar reaching zero stops at the axis.
    #[test]
    fn error_bars_are_mean_plus_minus_sd() {
        assert_eq!(bar_low(10.0, 8.0, false, 0.0), 2.0);
        assert_eq!(bar_low(10.0, 12.0, false, -5.0), -2.0);
        assert_eq!(bar_low(10.0, 8.0, true, 0.5), 2.0);
        assert_eq!(bar_low(10.0, 12.0, true, 0.5), 0.5);
    }

    /// Further panels are drawn beside the first, with one legend: twice the markers, one
    /// legend entry per series, and the paper's 0-100 axis when asked for.
    #[test]
    fn panels_are_drawn_side_by_side() {
        let t = Table::from_csv("lb,m,q\nar,1,2\nar,4,10\nofan,1,1\nofan,4,1\n");
        let mut e = exp(false);
        let one = render(&e, &t).unwrap();
        e.panels = vec![Plot {
            y_span: Some((0.0, 100.0)),
            ..e.plot
        }];
        let two = render(&e, &t).unwrap();
        assert!(two.contains(&format!("width=\"{}\"", 2 * LEGEND_X + LEGEND_W)));
        assert_eq!(two.matches("<circle").count(), 2 * 4 + 2, "{two}");
        assert_eq!(one.matches("<circle").count(), 4 + 2);
        assert!(texts(&two).iter().any(|t| t == "100"));
    }

    /// Log axes tick at 1, 2 and 5 times the powers of ten; under a decade they are linear.
    #[test]
    fn log_axes_tick_at_one_two_five_or_turn_linear() {
        let ticks = |r: std::ops::Range<f64>| log_axis(&r).map(|a| a.bold_points().to_vec());
        assert_eq!(
            ticks(3.0..300.0),
            Some(vec![5.0, 10.0, 20.0, 50.0, 100.0, 200.0])
        );
        assert_eq!(ticks(10.4..62.5), None);
        assert_eq!(ticks(1.0..10.0), Some(vec![1.0, 2.0, 5.0, 10.0]));
        assert_eq!(ticks(0.0..10.0), None);
    }

    /// One figure's title is written once (over the SVG, not again over its chart).
    #[test]
    fn a_figure_has_one_title() {
        let f = Figure {
            title: "the title".into(),
            x_label: "x",
            y_label: "y",
            x_log: true,
            y_log: true,
            cats: vec![],
            series: vec![Series {
                name: "s".into(),
                points: vec![(13.0, 1.0, 0.0), (50.0, 3.0, 0.0)],
            }],
            markers: true,
            y_span: None,
        };
        let svg = render_figure(&f).unwrap();
        let texts = texts(&svg);
        assert_eq!(
            texts.iter().filter(|t| *t == "the title").count(),
            1,
            "{texts:?}"
        );
        // Both axes are under a decade: linear, numbered inside the data.
        let numbers: Vec<f64> = texts.iter().filter_map(|t| t.parse().ok()).collect();
        assert!(
            numbers
                .iter()
                .filter(|v| (13.0..=50.0).contains(*v))
                .count()
                >= 2,
            "{texts:?}"
        );
        assert!(
            numbers.iter().filter(|v| (1.0..=3.0).contains(*v)).count() >= 2,
            "{texts:?}"
        );
    }

    #[test]
    fn categorical_x_labels_name_the_categories() {
        let t = Table::from_csv("lb,m,q\nx,ecmp,2\nx,ofan,1\n");
        let mut e = exp(false);
        e.plot.series = |_| "all".into();
        let (cats, s) = series(&e, &t);
        assert_eq!(cats, ["ecmp", "ofan"]);
        assert_eq!(s[0].points, vec![(0.0, 2.0, 0.0), (1.0, 1.0, 0.0)]);
        let svg = render(&e, &t).unwrap();
        let texts = texts(&svg);
        assert!(texts.iter().any(|t| t == "ecmp") && texts.iter().any(|t| t == "ofan"));
    }
}
