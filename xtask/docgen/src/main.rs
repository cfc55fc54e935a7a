//! `xtask-docgen OUT_DIR`: writes the `wellknown` man pages and shell completions under OUT_DIR
//! (see [`xtask_docgen::generate`]) and lists the files written on standard error.

fn main() {
    let Some(out) = std::env::args_os().nth(1) else {
        eprintln!("usage: xtask-docgen OUT_DIR");
        std::process::exit(2);
    };
    match xtask_docgen::generate(wellknown::args::command(), std::path::Path::new(&out)) {
        Ok(files) => {
            for f in files {
                eprintln!("{}", f.display());
            }
        }
        Err(e) => {
            eprintln!("xtask-docgen: {e}");
            std::process::exit(1);
        }
    }
}
