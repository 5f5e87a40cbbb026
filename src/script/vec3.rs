//! `Vec3` for scripts: positions and directions with arithmetic (`a + b`, `a - b`, `a * 2.0`), `distance`, `floor`;
//! Mineflayer's method names too (`normalize`, `distanceTo`, `plus`, `minus`, `scaled`, `floored`).

use rhai::{Dynamic, Engine, EvalAltResult, FLOAT, INT};

/// A point or direction in the world, in blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Vec3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

impl Vec3 {
    pub fn new(x: f64, y: f64, z: f64) -> Self {
        Self { x, y, z }
    }

    pub fn distance(&self, other: Vec3) -> f64 {
        ((self.x - other.x).powi(2) + (self.y - other.y).powi(2) + (self.z - other.z).powi(2)).sqrt()
    }

    pub fn floor(&self) -> Vec3 {
        Vec3::new(self.x.floor(), self.y.floor(), self.z.floor())
    }
}

impl std::fmt::Display for Vec3 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let num = |v: f64| if v.fract() == 0.0 { format!("{v:.0}") } else { format!("{v:.2}") };
        write!(f, "vec3({}, {}, {})", num(self.x), num(self.y), num(self.z))
    }
}

impl From<azalea::Vec3> for Vec3 {
    fn from(v: azalea::Vec3) -> Self {
        Vec3::new(v.x, v.y, v.z)
    }
}

impl From<azalea::BlockPos> for Vec3 {
    fn from(p: azalea::BlockPos) -> Self {
        Vec3::new(p.x as f64, p.y as f64, p.z as f64)
    }
}

impl From<Vec3> for azalea::BlockPos {
    fn from(v: Vec3) -> Self {
        azalea::BlockPos::new(v.x.floor() as i32, v.y.floor() as i32, v.z.floor() as i32)
    }
}

impl From<Vec3> for azalea::Vec3 {
    fn from(v: Vec3) -> Self {
        azalea::Vec3::new(v.x, v.y, v.z)
    }
}

/// An integer or float argument as `f64`.
fn number(value: &Dynamic, axis: &str) -> Result<f64, Box<EvalAltResult>> {
    value
        .as_float()
        .or_else(|_| value.as_int().map(|i| i as f64))
        .map_err(|t| format!("vec3 needs numbers; {axis} is a {t}").into())
}

/// Registers the type, its constructor `vec3(x, y, z)` (integers or floats), fields, operators and helpers.
pub fn register(engine: &mut Engine) {
    engine
        .register_type_with_name::<Vec3>("Vec3")
        .register_fn("vec3", |x: Dynamic, y: Dynamic, z: Dynamic| -> Result<Vec3, Box<EvalAltResult>> {
            Ok(Vec3::new(number(&x, "x")?, number(&y, "y")?, number(&z, "z")?))
        })
        .register_get_set("x", |v: &mut Vec3| v.x, |v: &mut Vec3, x: FLOAT| v.x = x)
        .register_get_set("y", |v: &mut Vec3| v.y, |v: &mut Vec3, y: FLOAT| v.y = y)
        .register_get_set("z", |v: &mut Vec3| v.z, |v: &mut Vec3, z: FLOAT| v.z = z)
        .register_fn("+", |a: Vec3, b: Vec3| Vec3::new(a.x + b.x, a.y + b.y, a.z + b.z))
        .register_fn("-", |a: Vec3, b: Vec3| Vec3::new(a.x - b.x, a.y - b.y, a.z - b.z))
        .register_fn("*", |a: Vec3, k: FLOAT| Vec3::new(a.x * k, a.y * k, a.z * k))
        .register_fn("*", |a: Vec3, k: INT| Vec3::new(a.x * k as f64, a.y * k as f64, a.z * k as f64))
        .register_fn("==", |a: Vec3, b: Vec3| a == b)
        .register_fn("!=", |a: Vec3, b: Vec3| a != b)
        .register_fn("distance", |a: &mut Vec3, b: Vec3| a.distance(b))
        .register_fn("floor", |a: &mut Vec3| a.floor())
        .register_fn("offset", |a: &mut Vec3, x: INT, y: INT, z: INT| {
            Vec3::new(a.x + x as f64, a.y + y as f64, a.z + z as f64)
        })
        .register_fn("to_string", |a: &mut Vec3| a.to_string())
        .register_fn("to_debug", |a: &mut Vec3| a.to_string());
    // Mineflayer's vec3 methods, which a model trained on its scripts writes (`(end - start).normalize()` was sent
    // back four times in a row in one task): the same meaning, so they run as written.
    engine
        .register_fn("normalize", |a: &mut Vec3| {
            let length = a.distance(Vec3::default());
            if length == 0.0 { *a } else { Vec3::new(a.x / length, a.y / length, a.z / length) }
        })
        .register_fn("distanceTo", |a: &mut Vec3, b: Vec3| a.distance(b))
        .register_fn("floored", |a: &mut Vec3| a.floor())
        .register_fn("plus", |a: &mut Vec3, b: Vec3| Vec3::new(a.x + b.x, a.y + b.y, a.z + b.z))
        .register_fn("minus", |a: &mut Vec3, b: Vec3| Vec3::new(a.x - b.x, a.y - b.y, a.z - b.z))
        .register_fn("scaled", |a: &mut Vec3, k: FLOAT| Vec3::new(a.x * k, a.y * k, a.z * k))
        .register_fn("scaled", |a: &mut Vec3, k: INT| Vec3::new(a.x * k as f64, a.y * k as f64, a.z * k as f64));
    // A range with a coordinate at an end (`for x in 0..pos.x`) counts blocks: each float end is the block it lies
    // in, floored as `floor()` does (Rhai has ranges of integers only, and refused these).
    let block = |f: FLOAT| f.floor() as INT;
    engine
        .register_fn("..", move |a: INT, b: FLOAT| a..block(b))
        .register_fn("..", move |a: FLOAT, b: INT| block(a)..b)
        .register_fn("..", move |a: FLOAT, b: FLOAT| block(a)..block(b))
        .register_fn("..=", move |a: INT, b: FLOAT| a..=block(b))
        .register_fn("..=", move |a: FLOAT, b: INT| block(a)..=b)
        .register_fn("..=", move |a: FLOAT, b: FLOAT| block(a)..=block(b));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mineflayer_s_vec3_methods_run_as_written() {
        let mut engine = Engine::new();
        register(&mut engine);
        let v: Vec3 = engine.eval("(vec3(3, 0, 4) - vec3(0, 0, 0)).normalize()").unwrap();
        assert_eq!(v, Vec3::new(0.6, 0.0, 0.8));
        let zero: Vec3 = engine.eval("vec3(0, 0, 0).normalize()").unwrap();
        assert_eq!(zero, Vec3::default(), "no direction stays none, not NaN");
        let d: FLOAT = engine.eval("vec3(1, 2, 3).distanceTo(vec3(1, 2, 7))").unwrap();
        assert_eq!(d, 4.0);
        let v: Vec3 =
            engine.eval("vec3(1.5, 2, 3).plus(vec3(1, 1, 1)).minus(vec3(0, 0, 1)).scaled(2).floored()").unwrap();
        assert_eq!(v, Vec3::new(5.0, 6.0, 6.0));
    }

    #[test]
    fn arithmetic_in_scripts() {
        let mut engine = Engine::new();
        register(&mut engine);
        let v: Vec3 =
            engine.eval("let a = vec3(1, 2, 3); let b = vec3(0.5, 0.5, 0.5); (a + b) * 2 - vec3(1, 1, 1)").unwrap();
        assert_eq!(v, Vec3::new(2.0, 4.0, 6.0));
        let d: f64 = engine.eval("vec3(0, 0, 0).distance(vec3(3, 4, 0))").unwrap();
        assert_eq!(d, 5.0);
        let s: String = engine.eval("`${vec3(1.5, 64, -2).floor()}`").unwrap();
        assert_eq!(s, "vec3(1, 64, -2)");
        let y: f64 = engine.eval("let p = vec3(1, 2, 3); p.y = 70.0; p.offset(0, 1, 0).y").unwrap();
        assert_eq!(y, 71.0);
    }

    #[test]
    fn ranges_with_a_coordinate_at_an_end_count_blocks() {
        let mut engine = Engine::new();
        register(&mut engine);
        let xs: rhai::Array =
            engine.eval("let p = vec3(2.5, 64, -1.5); let xs = []; for x in 0..p.x { xs.push(x); } xs").unwrap();
        assert_eq!(xs.iter().map(|x| x.as_int().unwrap()).collect::<Vec<_>>(), [0, 1]);
        let zs: rhai::Array =
            engine.eval("let p = vec3(2.5, 64, -1.5); let zs = []; for z in p.z..=p.x { zs.push(z); } zs").unwrap();
        assert_eq!(zs.iter().map(|z| z.as_int().unwrap()).collect::<Vec<_>>(), [-2, -1, 0, 1, 2]);
        let n: INT = engine.eval("let n = 0; for i in 1.9..3 { n += i; } n").unwrap();
        assert_eq!(n, 1 + 2);
    }
}
