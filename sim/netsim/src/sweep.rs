//! Sweeps: an experiment file with a `[sweep]` table of dotted keys and
//! value lists (`"workload.load" = [0.5, 0.6]`, `"router.scheduler" =
//! ["fifo", "virtualclock"]`) runs the cartesian product in parallel. The
//! optional `x` key names the plotted x axis (default: the first listed key,
//! in file order). Keys joined by `+` are set together from a list value.
//! A failing point is reported and the others finish.

use crate::experiment::{Experiment, ExperimentError};
use crate::network::Results;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[derive(Clone, Debug)]
pub struct Point {
    /// (dotted key, value as written) for every swept key.
    pub params: Vec<(String, toml::Value)>,
    pub result: Result<Results, String>,
}

pub struct Grid {
    pub name: String,
    pub file: String,
    pub dir: PathBuf,
    pub base: toml::Table,
    pub keys: Vec<(String, Vec<toml::Value>)>,
    pub x: String,
}

/// Largest grid (points) a sweep file may describe.
pub const MAX_POINTS: u64 = 10_000;

/// Why `model` refuses a `[reconfigure]` section (`sim` and `sweep` run it).
pub const RECONFIGURE_ELSEWHERE: &str = "the analytic models predict one set of tables in steady state, and a reconfiguration is a transient (quiesce, drain, rewrite, resume); `sim` and `sweep` run it (reconfigure.at_cycle), `cosim --experiment` holds the RTL to the model through it, `generate --experiment` writes the table writes: allowed values: no [reconfigure] section for model";

fn perr(file: &str, message: String) -> ExperimentError {
    ExperimentError::Parse { file: file.to_string(), message }
}

/// A point's experiment is deserialized from a `toml::Value`, which has no
/// spans, so a wrong type or an unknown variant arrives without a line;
/// the error names the field path ("in `model.source_queue`"), which the
/// text locates as every other field error is.
fn with_line(e: ExperimentError, text: &str) -> ExperimentError {
    match e {
        ExperimentError::Parse { file, message } if !message.contains("at line") => {
            let path = message.rsplit_once("in `").and_then(|(_, rest)| rest.split_once('`')).map(|(p, _)| p.to_string());
            match path {
                Some(p) => ExperimentError::Parse { file: wormqos_config::files::at(&file, text, &p), message },
                None => ExperimentError::Parse { file, message },
            }
        }
        other => other,
    }
}

impl Grid {
    /// Reads (size-capped) and validates a sweep file, every point included.
    pub fn from_file(path: &Path) -> Result<Grid, ExperimentError> {
        let file = path.display().to_string();
        let text = wormqos_config::files::read_capped(path).map_err(ExperimentError::Read)?;
        let g = Self::from_str(&text, &file, path.parent().map(Path::to_path_buf).unwrap_or_default())?;
        g.validate_points().map_err(|e| with_line(e.located(&text), &text))?;
        Ok(g)
    }

    /// The experiment of one point, validated (also what `wormqos model` evaluates).
    pub fn experiment(&self, params: &[(String, toml::Value)]) -> Result<crate::experiment::Validated, ExperimentError> {
        let mut t = self.base.clone();
        for (k, v) in params {
            set_path(&mut t, k, v.clone()).map_err(|e| ExperimentError::Field {
                file: self.file.clone(),
                field: format!("sweep.\"{k}\""),
                value: v.to_string(),
                why: e,
            })?;
        }
        let exp: Experiment = toml::Value::Table(t).try_into().map_err(|e: toml::de::Error| perr(&self.file, e.to_string()))?;
        exp.validate(&self.file, self.dir.clone())
    }

    /// Validates, before anything runs, the base experiment, each swept
    /// value on its own (errors name the sweep key and value) and every
    /// point of the grid (errors name the point).
    pub fn validate_points(&self) -> Result<(), ExperimentError> {
        let base = self.experiment(&[])?;
        if let Some(why) = crate::reconfigure::unsupported(&base) {
            return Err(ExperimentError::Read(why));
        }
        let with_point = |e: ExperimentError, params: &[(String, toml::Value)]| {
            let at: Vec<String> = params.iter().map(|(k, v)| format!("\"{k}\" = {v}")).collect();
            let (field, value, why) = match e {
                ExperimentError::Field { field, value, why, .. } => (field, value, why),
                ExperimentError::Parse { message, .. } => (
                    params.last().map(|(k, _)| format!("sweep.\"{k}\"")).unwrap_or_default(),
                    params.last().map(|(_, v)| v.to_string()).unwrap_or_default(),
                    message.replace('\n', " "),
                ),
                other => return other,
            };
            ExperimentError::Field { file: self.file.clone(), field, value, why: format!("{why} (in the sweep point {})", at.join(", ")) }
        };
        for (k, vals) in &self.keys {
            for v in vals {
                let p = [(k.clone(), v.clone())];
                self.experiment(&p).map_err(|e| with_point(e, &p))?;
            }
        }
        for p in self.points() {
            self.experiment(&p).map_err(|e| with_point(e, &p))?;
        }
        Ok(())
    }

    pub fn from_str(text: &str, file: &str, dir: PathBuf) -> Result<Grid, ExperimentError> {
        let mut base: toml::Table = toml::from_str(text).map_err(|e| perr(file, e.to_string()))?;
        let sweep = match base.remove("sweep") {
            Some(toml::Value::Table(t)) => t,
            Some(_) => return Err(perr(file, "`sweep` must be a table".into())),
            None => toml::Table::new(),
        };
        // Key order as written in the file (toml::Table sorts keys).
        let order: Vec<String> = text
            .split("[sweep]")
            .nth(1)
            .map(|s| {
                s.lines()
                    .filter_map(|l| l.split('=').next())
                    .map(|k| k.trim().trim_matches('"').to_string())
                    .filter(|k| sweep.contains_key(k))
                    .collect()
            })
            .unwrap_or_default();
        let mut keys = Vec::new();
        let mut x = None;
        for k in order.iter().chain(sweep.keys()) {
            if keys.iter().any(|(kk, _): &(String, _)| kk == k) || (k == "x" && x.is_some()) {
                continue;
            }
            match &sweep[k] {
                toml::Value::String(s) if k == "x" => x = Some(s.clone()),
                toml::Value::Array(a) if !a.is_empty() => keys.push((k.clone(), a.clone())),
                _ => {
                    return Err(ExperimentError::Field {
                        file: file.to_string(),
                        field: format!("sweep.\"{k}\""),
                        value: sweep[k].to_string(),
                        why: "a non-empty list of values (or `x = \"key\"`)".into(),
                    })
                }
            }
        }
        let n = keys.iter().fold(1u64, |n, (_, v): &(String, Vec<toml::Value>)| n.saturating_mul(v.len() as u64));
        if n > MAX_POINTS {
            return Err(ExperimentError::Field {
                file: file.to_string(),
                field: "sweep".into(),
                value: format!("{n} points"),
                why: format!("the product of the list lengths: allowed range 1..={MAX_POINTS}"),
            });
        }
        let x = x.unwrap_or_else(|| keys.first().map(|k| k.0.clone()).unwrap_or_default());
        if !keys.is_empty() && !keys.iter().any(|k| k.0 == x) {
            return Err(ExperimentError::Field { file: file.to_string(), field: "sweep.x".into(), value: x, why: "must be one of the swept keys".into() });
        }
        let name = base.get("name").and_then(|v| v.as_str()).unwrap_or("sweep").to_string();
        let g = Grid { name, file: file.to_string(), dir, base, keys, x };
        // Every point must at least parse and validate its keys' paths.
        for k in &g.keys {
            set_path(&mut g.base.clone(), &k.0, k.1[0].clone()).map_err(|e| ExperimentError::Field {
                file: file.to_string(),
                field: format!("sweep.\"{}\"", k.0),
                value: k.1[0].to_string(),
                why: e,
            })?;
        }
        Ok(g)
    }

    pub fn points(&self) -> Vec<Vec<(String, toml::Value)>> {
        let mut out = vec![Vec::new()];
        for (k, vals) in &self.keys {
            out = out
                .into_iter()
                .flat_map(|p| {
                    vals.iter().map(move |v| {
                        let mut q = p.clone();
                        q.push((k.clone(), v.clone()));
                        q
                    })
                })
                .collect();
        }
        out
    }

    fn run_point(&self, params: &[(String, toml::Value)]) -> Result<Results, String> {
        let v = self.experiment(params).map_err(|e| e.to_string())?;
        let r = crate::network::run(&v).map_err(|e| e.to_string())?;
        match empty_run(&r) {
            Some(why) => Err(why),
            None => Ok(r),
        }
    }

    /// Runs every point on `jobs` threads; `progress(done, total)` after each.
    pub fn run(&self, jobs: usize, progress: &(dyn Fn(usize, usize) + Sync)) -> Vec<Point> {
        let all: Vec<usize> = (0..self.points().len()).collect();
        self.run_indices(&all, jobs, progress).into_iter().map(|(_, p)| p).collect()
    }

    /// Runs the points with the given indices (in [`Grid::points`] order)
    /// on `jobs` threads and returns them with their indices, in the order
    /// given; `progress(done, total)` after each.
    pub fn run_indices(&self, indices: &[usize], jobs: usize, progress: &(dyn Fn(usize, usize) + Sync)) -> Vec<(usize, Point)> {
        let all = self.points();
        let pts: Vec<&Vec<(String, toml::Value)>> = indices.iter().map(|&i| &all[i]).collect();
        let next = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        let out: Mutex<Vec<Option<Point>>> = Mutex::new(vec![None; pts.len()]);
        std::thread::scope(|s| {
            for _ in 0..jobs.max(1).min(pts.len().max(1)) {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= pts.len() {
                        break;
                    }
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.run_point(pts[i])))
                        .unwrap_or_else(|_| Err("internal error (panic) in this point".into()));
                    out.lock().unwrap()[i] = Some(Point { params: pts[i].clone(), result: r });
                    let d = done.fetch_add(1, Ordering::SeqCst) + 1;
                    progress(d, pts.len());
                });
            }
        });
        indices.iter().copied().zip(out.into_inner().unwrap().into_iter().map(|p| p.unwrap())).collect()
    }
}

/// Sets a dotted key; `a.b+c.d` sets several keys together from a list value
/// (coupled parameters, e.g. `"router.mode+router.scheduler"`).
fn set_path(t: &mut toml::Table, path: &str, v: toml::Value) -> Result<(), String> {
    if path.contains('+') {
        let keys: Vec<&str> = path.split('+').collect();
        let vals = match v {
            toml::Value::Array(a) if a.len() == keys.len() => a,
            other => return Err(format!("{other}: needs a list of {} values, one per `+` key", keys.len())),
        };
        for (k, v) in keys.iter().zip(vals) {
            set_one(t, k, v)?;
        }
        return Ok(());
    }
    set_one(t, path, v)
}

fn set_one(t: &mut toml::Table, path: &str, v: toml::Value) -> Result<(), String> {
    let parts: Vec<&str> = path.split('.').collect();
    let mut cur = t;
    for p in &parts[..parts.len() - 1] {
        let e = cur.entry(p.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        cur = e.as_table_mut().ok_or_else(|| format!("`{p}` is not a table"))?;
    }
    cur.insert(parts[parts.len() - 1].to_string(), v);
    Ok(())
}

/// Why a run's metrics mean nothing (no flit injected, no message measured), if so.
pub fn empty_run(r: &Results) -> Option<String> {
    let measured: u64 = r.classes.iter().map(|c| c.messages).sum();
    (r.flits_injected == 0 || measured == 0).then(|| {
        format!(
            "empty run: {} flits injected, {} messages measured in {} cycles after {} warm-up cycles; raise workload.load or the run length",
            r.flits_injected,
            measured,
            r.cycles.saturating_sub(r.warmup_cycles),
            r.warmup_cycles
        )
    })
}

pub fn value_label(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Array(a) => a.iter().map(value_label).collect::<Vec<_>>().join(":"),
        toml::Value::Table(t) => t.get("mode").map(value_label).unwrap_or_else(|| v.to_string()),
        other => other.to_string(),
    }
}

/// The scalar columns of the CSV (name, extractor).
pub fn columns() -> Vec<(&'static str, fn(&Results) -> f64)> {
    fn class(r: &Results, c: u8) -> Option<&crate::network::ClassStats> {
        r.classes.iter().find(|s| s.class == c)
    }
    vec![
        ("frame_interval_mean_ms", |r| r.frame_interval_ms.mean),
        ("frame_interval_sd_ms", |r| r.frame_interval_ms.sd),
        ("deadline_miss_probability", |r| r.deadline_miss_probability),
        ("deadline_missing_time_ms", |r| r.deadline_missing_time_ms),
        ("accepted_throughput", |r| r.accepted_throughput),
        ("frame_interval_mean_ci95_ms", |r| r.ci95.frame_interval_mean),
        ("frame_interval_sd_ci95_ms", |r| r.ci95.frame_interval_sd),
        ("deadline_miss_probability_ci95", |r| r.ci95.deadline_miss_probability),
        ("accepted_throughput_ci95", |r| r.ci95.accepted_throughput),
        ("be_latency_us", |r| class(r, 0).map_or(f64::NAN, |c| c.latency * r.cycle_ns / 1e3)),
        ("be_latency_cycles", |r| class(r, 0).map_or(f64::NAN, |c| c.latency)),
        ("be_latency_ci95_cycles", |r| class(r, 0).map_or(f64::NAN, |c| c.latency_ci95)),
        ("be_network_latency_cycles", |r| class(r, 0).map_or(f64::NAN, |c| c.network_latency)),
        ("rt_latency_cycles", |r| class(r, 1).map_or(f64::NAN, |c| c.latency)),
        ("class2_latency_cycles", |r| class(r, 2).map_or(f64::NAN, |c| c.latency)),
        ("class2_network_latency_cycles", |r| class(r, 2).map_or(f64::NAN, |c| c.network_latency)),
        ("rt_network_latency_cycles", |r| class(r, 1).map_or(f64::NAN, |c| c.network_latency)),
        ("rt_source_latency_cycles", |r| class(r, 1).map_or(f64::NAN, |c| c.source_latency)),
        ("realtime_streams", |r| r.realtime_streams as f64),
        ("messages_delivered", |r| r.messages_delivered as f64),
        ("preemptions", |r| r.router_events.preemptions as f64),
        ("nested_preemptions", |r| r.router_events.nested_preemptions as f64),
        ("accelerations", |r| r.router_events.accelerations as f64),
        ("block_holds", |r| r.router_events.block_holds as f64),
        ("router_cycles_per_second", |r| r.router_cycles_per_second),
        ("wall_seconds", |r| r.wall_seconds),
    ]
}

pub fn to_csv(grid: &Grid, pts: &[Point]) -> String {
    let cols = columns();
    let mut s = String::new();
    let mut head: Vec<String> = grid.keys.iter().map(|k| k.0.clone()).collect();
    head.extend(cols.iter().map(|c| c.0.to_string()));
    head.push("error".into());
    s.push_str(&head.join(","));
    s.push('\n');
    for p in pts {
        let mut row: Vec<String> = p.params.iter().map(|(_, v)| value_label(v)).collect();
        match &p.result {
            Ok(r) => {
                row.extend(cols.iter().map(|c| format!("{}", (c.1)(r))));
                row.push(String::new());
            }
            Err(e) => {
                row.extend(cols.iter().map(|_| String::new()));
                row.push(format!("\"{}\"", e.replace('"', "'").replace('\n', " | ")));
            }
        }
        s.push_str(&row.join(","));
        s.push('\n');
    }
    s
}

pub fn to_json(grid: &Grid, pts: &[Point]) -> serde_json::Value {
    serde_json::json!({
        "name": grid.name,
        "file": grid.file,
        "points": pts.iter().map(|p| {
            let params: serde_json::Map<String, serde_json::Value> = p.params.iter()
                .map(|(k, v)| (k.clone(), serde_json::to_value(v).unwrap_or(serde_json::Value::Null))).collect();
            match &p.result {
                Ok(r) => serde_json::json!({"params": params, "results": r}),
                Err(e) => serde_json::json!({"params": params, "error": e}),
            }
        }).collect::<Vec<_>>(),
    })
}

/// Series for a plot of column `col` against the x key: one series per
/// combination of the other keys.
pub fn series(grid: &Grid, pts: &[Point], col: fn(&Results) -> f64) -> Vec<(String, Vec<(f64, f64)>)> {
    let mut out: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for p in pts {
        let Ok(r) = &p.result else { continue };
        let mut label = Vec::new();
        let mut x = f64::NAN;
        for (k, v) in &p.params {
            if *k == grid.x {
                // A coupled key plots against its first value.
                let v = v.as_array().and_then(|a| a.first()).unwrap_or(v);
                x = v.as_float().or(v.as_integer().map(|i| i as f64)).unwrap_or(f64::NAN);
            } else {
                label.push(value_label(v));
            }
        }
        let y = col(r);
        if !x.is_finite() || !y.is_finite() {
            continue;
        }
        let l = label.join(" ");
        match out.iter_mut().find(|s| s.0 == l) {
            Some(s) => s.1.push((x, y)),
            None => out.push((l, vec![(x, y)])),
        }
    }
    for s in &mut out {
        s.1.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    out
}
