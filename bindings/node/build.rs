//! Node-API link setup (undefined `napi_*` symbols resolved by the host process).

fn main() {
    napi_build::setup();
}
