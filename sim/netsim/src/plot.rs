//! Line plots of sweep results: SVG always, PNG when a TrueType font is found
//! on the machine (bitmap text needs one; the SVG uses the viewer's fonts).

use plotters::prelude::*;
use std::path::Path;

pub type Series = Vec<(String, Vec<(f64, f64)>)>;

const FONT_PATHS: [&str; 4] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
];

fn register_font() -> bool {
    static ONCE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ONCE.get_or_init(|| {
        for p in FONT_PATHS {
            if let Ok(bytes) = std::fs::read(p) {
                let leaked: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, leaked).is_ok() {
                    return true;
                }
            }
        }
        false
    })
}

fn draw<DB: DrawingBackend>(root: DrawingArea<DB, plotters::coord::Shift>, title: &str, xlabel: &str, ylabel: &str, series: &Series) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let pts = series.iter().flat_map(|s| s.1.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::INFINITY, f64::NEG_INFINITY, 0.0f64, f64::NEG_INFINITY);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if !x0.is_finite() {
        x0 = 0.0;
        x1 = 1.0;
        y1 = 1.0;
    }
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    if !(y1 > y0) {
        y1 = y0 + 1.0;
    }
    let pad = (y1 - y0) * 0.08;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, y0..(y1 + pad))
        .map_err(|e| e.to_string())?;
    chart.configure_mesh().x_desc(xlabel).y_desc(ylabel).draw().map_err(|e| e.to_string())?;
    for (i, (label, pts)) in series.iter().enumerate() {
        let color = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
        chart.draw_series(pts.iter().map(|&p| Circle::new(p, 3, color.filled()))).map_err(|e| e.to_string())?;
    }
    if series.iter().any(|s| !s.0.is_empty()) {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(|e| e.to_string())?;
    }
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}

/// Writes `<stem>.svg` and, if a font is available, `<stem>.png`. Returns
/// the files written.
pub fn line_plot(stem: &Path, title: &str, xlabel: &str, ylabel: &str, series: &Series) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let have_font = register_font();
    let svg = stem.with_extension("svg");
    draw(SVGBackend::new(&svg, (800, 500)).into_drawing_area(), title, xlabel, ylabel, series)?;
    out.push(svg.display().to_string());
    if have_font {
        let png = stem.with_extension("png");
        draw(BitMapBackend::new(&png, (800, 500)).into_drawing_area(), title, xlabel, ylabel, series)?;
        out.push(png.display().to_string());
    }
    Ok(out)
}
