//! The Bun peer of `cargo xtask bench`: `@oh-my-pi/hashline` 18.1.5 run by the `bun` npm
//! package, installed with npm into the bench cache, and the one-process driver that reads a
//! file, records it and applies a `[PATH#TAG]` patch to it.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The packages installed, exactly.
const PACKAGE_JSON: &str = r#"{
  "private": true,
  "description": "hashline bench peer (cargo xtask bench)",
  "dependencies": {
    "bun": "1.4.5",
    "@oh-my-pi/hashline": "18.1.5"
  }
}
"#;

/// Read, record and patch in one process, as an agent host embedding the library does. The
/// patch file's `#TAG]` is replaced by the tag the read minted. Prints the op and the new tag.
const DRIVER: &str = r##"import { NodeFilesystem, InMemorySnapshotStore, Patcher, Patch } from "@oh-my-pi/hashline";
const [root, file, patchFile] = process.argv.slice(2);
process.chdir(root);
const fs = new NodeFilesystem();
const snapshots = new InMemorySnapshotStore();
const text = await fs.readText(file);
const tag = snapshots.record(file, text);
const patchText = (await Bun.file(patchFile).text()).replace("#TAG]", `#${tag}]`);
const result = await new Patcher({ fs, snapshots }).apply(Patch.parse(patchText));
const s = result.sections[0];
console.log(s.op, s.fileHash);
"##;

/// The installed peer.
pub struct Peer {
    bun: PathBuf,
    driver: PathBuf,
}

impl Peer {
    /// Install (once) into `cache/peer` and check that bun runs.
    pub fn install(cache: &Path) -> Result<Peer, String> {
        let dir = cache.join("peer");
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let manifest = dir.join("package.json");
        let bun = dir.join("node_modules/.bin/bun");
        let current = std::fs::read_to_string(&manifest).ok().as_deref() == Some(PACKAGE_JSON);
        if !current || !runs(&bun) {
            std::fs::write(&manifest, PACKAGE_JSON).map_err(|e| e.to_string())?;
            println!("bench: npm install of the Bun peer in {} …", dir.display());
            let out = Command::new("npm")
                .args(["install", "--no-audit", "--no-fund", "--no-package-lock"])
                .current_dir(&dir)
                .output()
                .map_err(|e| format!("cannot run npm: {e}"))?;
            if !out.status.success() {
                return Err(format!(
                    "npm install failed: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                ));
            }
        }
        if !runs(&bun) {
            return Err(format!("{} does not run", bun.display()));
        }
        let driver = dir.join("driver.mjs");
        std::fs::write(&driver, DRIVER).map_err(|e| e.to_string())?;
        Ok(Peer { bun, driver })
    }

    /// `bun driver.mjs ROOT FILE PATCH`: read, record and patch `file` under `root`.
    pub fn command(&self, root: &Path, file: &str, patch: &Path) -> Command {
        let mut cmd = Command::new(&self.bun);
        cmd.arg(&self.driver).arg(root).arg(file).arg(patch);
        cmd
    }
}

fn runs(bun: &Path) -> bool {
    Command::new(bun)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}
