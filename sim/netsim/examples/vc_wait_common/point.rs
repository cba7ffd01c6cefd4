//! One point `load:mix_rt:mix_be` of a one-VC-per-class experiment as the
//! experiment's text (shared by `dmp_vc_wait` and `cube_vcq_hops`).

/// `load:mix_rt:mix_be` parsed, or why not.
pub fn parse_point(p: &str) -> Result<(f64, (f64, f64)), String> {
    let f: Vec<f64> = p.split(':').map(|x| x.parse::<f64>().map_err(|_| format!("point {p:?}: {x:?} is not a number"))).collect::<Result<_, _>>()?;
    if f.len() != 3 {
        return Err(format!("point {p:?}: want load:mix_rt:mix_be"));
    }
    Ok((f[0], (f[1], f[2])))
}

/// The experiment's text up to `[sweep]`, with the point's load and mix
/// and the run length put in; an error naming the file if a key is missing.
pub fn point_text(text: &str, file: &str, load: f64, mix: (f64, f64), cycles: u64) -> Result<String, String> {
    for key in ["load =", "mix =", "cycles ="] {
        if !text.contains(key) {
            return Err(format!("{file}: no line `{key} …` to set"));
        }
    }
    let mut out = String::new();
    for line in text[..text.find("[sweep]").unwrap_or(text.len())].lines() {
        let t = line.trim_start();
        let l = if t.starts_with("load =") {
            format!("load = {load}")
        } else if t.starts_with("mix =") {
            format!("mix = [{}, {}]", mix.0, mix.1)
        } else if t.starts_with("cycles =") {
            format!("cycles = {cycles}")
        } else {
            line.to_string()
        };
        out += &l;
        out.push('\n');
    }
    Ok(out)
}
