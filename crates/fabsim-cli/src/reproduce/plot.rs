//! `plot.svg`: the experiment's y against x, one line per series, mean and one standard
//! deviation over seeds. plotters with its SVG backend only: text is written as SVG `<text>`
//! elements (no font files are read). Log axes plot log10 of the values on a linear axis
//! labelled with the original values, so one code path serves all four axis combinations.

use plotters::prelude::*;

use super::table::mean_sd;
use super::{fmt_num, Experiment, Table};

/// One plotted line: (x, mean y, standard deviation of y) per x, in x order.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub points: Vec<(f64, f64, f64)>,
}

/// The plotted data: the x categories (empty when x is numeric) and the series.
pub fn series(exp: &Experiment, table: &Table) -> (Vec<String>, Vec<Series>) {
    let p = &exp.plot;
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
            xs.parse().expect("checked numeric")
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

fn axis(v: f64, log: bool) -> f64 {
    if log {
        v.max(f64::MIN_POSITIVE).log10()
    } else {
        v
    }
}

/// Range of `vals` with a 5% margin (a unit around a single value).
fn range(vals: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (lo, hi) = vals.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    });
    if !lo.is_finite() {
        return 0.0..1.0;
    }
    let pad = if hi > lo {
        0.05 * (hi - lo)
    } else {
        0.5 * lo.abs().max(1.0)
    };
    (lo - pad)..(hi + pad)
}

/// Renders the plot as an SVG document.
pub fn render(exp: &Experiment, table: &Table) -> Result<String, String> {
    let p = &exp.plot;
    let (cats, series) = series(exp, table);
    let xl = p.x_log && cats.is_empty();
    let pts = || series.iter().flat_map(|s| s.points.iter());
    let xr = if cats.is_empty() {
        range(pts().map(|&(x, _, _)| axis(x, xl)))
    } else {
        -0.5..(cats.len() as f64 - 0.5)
    };
    let yr = range(
        pts().flat_map(|&(_, m, sd)| [axis((m - sd).max(m / 2.0), p.y_log), axis(m + sd, p.y_log)]),
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let title = format!("{} {}: {}", exp.paper.name(), exp.figure, exp.title);
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(14)
            .x_label_area_size(48)
            .y_label_area_size(72)
            .build_cartesian_2d(xr, yr)
            .map_err(|e| e.to_string())?;
        let fmt_x = |v: &f64| {
            if !cats.is_empty() {
                let i = v.round();
                if (v - i).abs() < 1e-6 && i >= 0.0 {
                    cats.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            } else if xl {
                fmt_num(10f64.powf(*v))
            } else {
                fmt_num(*v)
            }
        };
        let fmt_y = |v: &f64| fmt_num(if p.y_log { 10f64.powf(*v) } else { *v });
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(p.x_label)
            .y_desc(p.y_label)
            .x_label_formatter(&fmt_x)
            .y_label_formatter(&fmt_y)
            .label_style(("sans-serif", 13));
        if !cats.is_empty() {
            mesh.x_labels(cats.len()).disable_x_mesh();
        }
        mesh.draw().map_err(|e| e.to_string())?;
        for (i, s) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let xy: Vec<(f64, f64)> = s
                .points
                .iter()
                .map(|&(x, m, _)| (axis(x, xl), axis(m, p.y_log)))
                .collect();
            // Categories are not ordered: markers and error bars only.
            let line = if cats.is_empty() { xy.clone() } else { vec![] };
            chart
                .draw_series(LineSeries::new(line, color.stroke_width(2)))
                .map_err(|e| e.to_string())?
                .label(s.name.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(3))
                });
            chart
                .draw_series(xy.iter().map(|&c| Circle::new(c, 4, color.filled())))
                .map_err(|e| e.to_string())?;
            chart
                .draw_series(s.points.iter().filter(|q| q.2 > 0.0).map(|&(x, m, sd)| {
                    ErrorBar::new_vertical(
                        axis(x, xl),
                        axis((m - sd).max(m / 2.0), p.y_log),
                        axis(m, p.y_log),
                        axis(m + sd, p.y_log),
                        color.stroke_width(1),
                        8,
                    )
                }))
                .map_err(|e| e.to_string())?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 13))
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(|e| e.to_string())?;
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
                x: "m",
                x_label: "message size [KiB]",
                x_log,
                y: |r| r.num("q"),
                y_label: "max queue [KB]",
                y_log: false,
                series: |r| r.get("lb").unwrap_or("?").to_string(),
            },
            claims: vec![],
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

    /// (cx, cy) of every `<circle>` in the SVG, in document order.
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
        }
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
