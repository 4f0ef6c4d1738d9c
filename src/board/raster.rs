//! Boards as PNG: the SVG rasterised in-process by resvg with the embedded
//! font only, then written as a palette (indexed) PNG.
//!
//! A board is drawn in a few dozen flat colours; anti-aliasing adds a few
//! hundred blends of them. The palette keeps every colour that covers a
//! noticeable part of the picture exactly (the board, the pieces, the
//! ink), and NeuQuant (the `color_quant` crate) picks the rest from the
//! blends; each pixel takes its nearest palette colour. A picture of 256
//! colours or fewer is written exactly. The same SVG gives the same bytes:
//! every step is integer arithmetic or IEEE arithmetic in a fixed order,
//! nothing depends on a hash map's order.

use resvg::tiny_skia::Pixmap;
use resvg::usvg;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// The font every label is drawn in; embedded so the PNG does not depend on
/// the fonts a machine has (DejaVu Sans Mono Bold, Bitstream Vera licence:
/// `assets/fonts/DejaVu-LICENSE.txt`).
pub const FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSansMono-Bold.ttf");
pub const FONT_FAMILY: &str = "DejaVu Sans Mono";

fn fontdb() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        db.set_monospace_family(FONT_FAMILY);
        db.set_sans_serif_family(FONT_FAMILY);
        db.set_serif_family(FONT_FAMILY);
        Arc::new(db)
    })
    .clone()
}

/// The picture rasterised `px` pixels wide (its height follows its shape).
// A String error: the rasteriser's failure, told as is where a picture is asked for.
pub fn rasterise(svg: &str, px: u32) -> Result<Pixmap, String> {
    let opt = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: fontdb(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| format!("the board picture: {e}"))?;
    let size = tree.size();
    let scale = px as f32 / size.width();
    let height = ((size.height() * scale).round() as u32).max(1);
    let mut pixmap =
        Pixmap::new(px, height).ok_or_else(|| "the board picture has no size".to_string())?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// A hasher for colour keys (`0xRRGGBB`): one multiplication, its high
/// bits folded into the low ones the table indexes by. The maps it serves
/// are never read in their own order (`histogram` sorts what it counts).
#[derive(Default)]
struct ColourHash(u64);

impl std::hash::Hasher for ColourHash {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u32(*b as u32);
        }
    }
    fn write_u32(&mut self, n: u32) {
        let h = (self.0 ^ n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }
}

type ColourMap<V> = HashMap<u32, V, std::hash::BuildHasherDefault<ColourHash>>;

/// The picture's pixels as colour keys `0xRRGGBB` (it is opaque: it starts
/// with a paper rectangle, so premultiplied equals straight colour).
fn keys(pixmap: &Pixmap) -> Vec<u32> {
    pixmap
        .pixels()
        .iter()
        .map(|p| {
            let c = p.demultiply();
            (c.red() as u32) << 16 | (c.green() as u32) << 8 | c.blue() as u32
        })
        .collect()
}

fn key(c: [u8; 3]) -> u32 {
    (c[0] as u32) << 16 | (c[1] as u32) << 8 | c[2] as u32
}

fn rgb(k: u32) -> [u8; 3] {
    [(k >> 16) as u8, (k >> 8) as u8, k as u8]
}

/// Every colour with its number of pixels, most common first (ties by
/// colour, so the order is fixed).
fn histogram(px: &[u32]) -> Vec<([u8; 3], u32)> {
    let mut counts: ColourMap<u32> = ColourMap::default();
    let mut i = 0;
    while i < px.len() {
        // runs of one colour are most of a board
        let mut j = i + 1;
        while j < px.len() && px[j] == px[i] {
            j += 1;
        }
        *counts.entry(px[i]).or_insert(0) += (j - i) as u32;
        i = j;
    }
    let mut v: Vec<([u8; 3], u32)> = counts.into_iter().map(|(k, n)| (rgb(k), n)).collect();
    v.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

fn distance(a: [u8; 3], b: [u8; 3]) -> u32 {
    // weighted towards green, as the eye is
    let d = |i: usize| (a[i] as i32 - b[i] as i32).pow(2) as u32;
    2 * d(0) + 4 * d(1) + 3 * d(2)
}

/// A palette of at most 256 colours for these pixels.
fn palette(pixels: usize, hist: &[([u8; 3], u32)]) -> Vec<[u8; 3]> {
    if hist.len() <= 256 {
        return hist.iter().map(|(c, _)| *c).collect();
    }
    // the colours that cover a noticeable part of the picture, exactly
    let floor = (pixels as u32 / 2000).max(8);
    let mut pal: Vec<[u8; 3]> = hist
        .iter()
        .take_while(|(_, n)| *n >= floor)
        .take(128)
        .map(|(c, _)| *c)
        .collect();
    // NeuQuant learns the rest from the blends, each colour weighed by
    // its pixels (up to 16: it learns from every tenth sample, trying
    // each of its colours on each, so the samples are its time)
    let rest: Vec<u8> = hist
        .iter()
        .filter(|(c, _)| !pal.contains(c))
        .flat_map(|(c, n)| std::iter::repeat_n([c[0], c[1], c[2], 255], (*n).min(16) as usize))
        .flatten()
        .collect();
    let want = 256 - pal.len();
    if rest.len() >= 4 * 64 && want >= 64 {
        let nq = color_quant::NeuQuant::new(10, want, &rest);
        for c in nq.color_map_rgb().chunks_exact(3) {
            let c = [c[0], c[1], c[2]];
            if !pal.contains(&c) {
                pal.push(c);
            }
        }
    }
    // whatever room is left: the next most common colours
    for (c, _) in hist {
        if pal.len() >= 256 {
            break;
        }
        if !pal.contains(c) {
            pal.push(*c);
        }
    }
    pal
}

/// The nearest palette entry of a colour by [`distance`] (the lowest index
/// among equals), found without trying every entry: the entries sorted by
/// green, searched outwards from the colour's green, stopping where the
/// green alone is farther than the best found (`distance` weighs green
/// ×4, so 4·Δg² bounds it from below). The same answer as trying all.
struct Nearest {
    /// (green, index) of every entry, by green then index.
    by_green: Vec<(u8, u8)>,
    pal: Vec<[u8; 3]>,
    exact: ColourMap<u8>,
}

impl Nearest {
    fn new(pal: &[[u8; 3]]) -> Nearest {
        let mut by_green: Vec<(u8, u8)> = pal
            .iter()
            .enumerate()
            .map(|(i, c)| (c[1], i as u8))
            .collect();
        by_green.sort_unstable();
        let mut exact = ColourMap::default();
        for (i, c) in pal.iter().enumerate().rev() {
            exact.insert(key(*c), i as u8);
        }
        Nearest {
            by_green,
            pal: pal.to_vec(),
            exact,
        }
    }

    fn find(&self, c: [u8; 3]) -> u8 {
        if self.by_green.is_empty() {
            return 0;
        }
        if let Some(i) = self.exact.get(&key(c)) {
            return *i;
        }
        let start = self.by_green.partition_point(|(g, _)| *g < c[1]);
        let mut best = (u32::MAX, u8::MAX);
        let try_at = |j: usize, best: &mut (u32, u8)| -> bool {
            let (g, i) = self.by_green[j];
            let dg = (g as i32 - c[1] as i32).pow(2) as u32 * 4;
            if dg > best.0 {
                return false;
            }
            let d = distance(self.pal[i as usize], c);
            if (d, i) < *best {
                *best = (d, i);
            }
            true
        };
        let mut up = start;
        while up < self.by_green.len() && try_at(up, &mut best) {
            up += 1;
        }
        let mut down = start;
        while down > 0 && try_at(down - 1, &mut best) {
            down -= 1;
        }
        best.1
    }
}

/// The picture as a palette PNG.
pub fn encode(pixmap: &Pixmap) -> Result<Vec<u8>, png::EncodingError> {
    let px = keys(pixmap);
    let hist = histogram(&px);
    let pal = palette(px.len(), &hist);
    // each distinct colour's nearest palette entry, once
    let near = Nearest::new(&pal);
    let mut index: ColourMap<u8> = ColourMap::default();
    index.reserve(hist.len());
    for (c, _) in &hist {
        index.insert(key(*c), near.find(*c));
    }
    let depth = if pal.len() <= 16 { 4 } else { 8 };
    let (w, h) = (pixmap.width() as usize, pixmap.height() as usize);
    let row = if depth == 4 { w.div_ceil(2) } else { w };
    let mut data = vec![0u8; row * h];
    // runs of one colour: one look-up a run
    let mut last = (u32::MAX, 0u8);
    let mut look = |k: u32| {
        if k != last.0 {
            last = (k, index[&k]);
        }
        last.1
    };
    if depth == 8 {
        for (d, k) in data.iter_mut().zip(&px) {
            *d = look(*k);
        }
    } else {
        for (out, line) in data.chunks_exact_mut(row).zip(px.chunks_exact(w)) {
            for (x, k) in line.iter().enumerate() {
                let i = look(*k);
                out[x / 2] |= if x % 2 == 0 { i << 4 } else { i };
            }
        }
    }
    let mut out = Vec::new();
    let mut e = png::Encoder::new(&mut out, w as u32, h as u32);
    e.set_color(png::ColorType::Indexed);
    e.set_depth(if depth == 4 {
        png::BitDepth::Four
    } else {
        png::BitDepth::Eight
    });
    e.set_palette(pal.iter().flatten().copied().collect::<Vec<u8>>());
    e.set_compression(png::Compression::Default);
    e.set_filter(png::FilterType::NoFilter);
    e.set_adaptive_filter(png::AdaptiveFilterType::NonAdaptive);
    let mut wr = e.write_header()?;
    wr.write_image_data(&data)?;
    wr.finish()?;
    Ok(out)
}

/// Rasterise at `px` pixels wide and encode as a palette PNG.
pub fn png(svg: &str, px: u32) -> Result<Vec<u8>, String> {
    let pixmap = rasterise(svg, px)?;
    encode(&pixmap).map_err(|e| format!("encoding the board picture: {e}"))
}

#[cfg(test)]
mod tests {
    use super::{distance, Nearest};

    /// The search by green finds what trying every entry finds, ties to
    /// the lowest index included.
    #[test]
    fn nearest_is_the_nearest_of_all() {
        let mut x: u32 = 12345;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        };
        for size in [1usize, 2, 17, 200, 256] {
            let mut pal: Vec<[u8; 3]> = (0..size)
                .map(|_| {
                    let v = next();
                    [v as u8, (v >> 8) as u8 & 0xf0, (v >> 16) as u8]
                })
                .collect();
            // equal entries, so ties are tried
            if size > 4 {
                pal[3] = pal[1];
            }
            let near = Nearest::new(&pal);
            for _ in 0..3000 {
                let v = next();
                let c = [v as u8, (v >> 8) as u8, (v >> 16) as u8];
                let all = pal
                    .iter()
                    .enumerate()
                    .min_by_key(|(i, p)| (distance(**p, c), *i))
                    .map(|(i, _)| i as u8)
                    .unwrap();
                assert_eq!(near.find(c), all, "{c:?} in a palette of {size}");
            }
        }
    }
}
