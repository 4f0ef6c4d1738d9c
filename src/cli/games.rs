use crate::error::Result;
use crate::games::REGISTRY;

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_: Args) -> Result<String> {
    let mut out = String::new();
    for e in REGISTRY {
        out.push_str(&format!("{:<16} {}\n", e.name, e.title));
        let nmr: Vec<&str> = e.nmr.iter().map(|n| n.name()).collect();
        out.push_str(&format!(
            "    --nmr {}   (missed orders; the first is the default)\n",
            nmr.join("|")
        ));
        for o in (e.options)() {
            out.push_str(&format!(
                "    --option {}={:<6} {}\n",
                o.name, o.default, o.help
            ));
        }
    }
    Ok(out)
}
