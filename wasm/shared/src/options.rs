//! Options objects: `limits` split off, the rest decoded as the function's options.

use crate::json::{self, Json};
use calibrank::error::Result;
use calibrank::limits::{Limits, PartialLimits};
use serde::de::DeserializeOwned;

/// Decodes optional options text (`None`: the defaults) as `T`, with its `limits`
/// (missing fields keep their defaults; the limits are validated).
pub fn with_limits<T: DeserializeOwned + Default>(
    text: Option<&str>,
    what: &str,
    function: &str,
) -> Result<(Limits, T)> {
    let Some(text) = text else {
        return Ok((Limits::defaults_for(function), T::default()));
    };
    let mut tree = json::parse(text, what)?;
    let limits = take_limits(&mut tree, what, function)?;
    let opts = match tree {
        Json::Null => T::default(),
        ref t => json::decode(t, what)?,
    };
    Ok((limits, opts))
}

/// Removes `limits` from an options object and decodes it over the defaults of
/// `function` (`Limits::defaults_for`).
pub fn take_limits(tree: &mut Json, what: &str, function: &str) -> Result<Limits> {
    let mut limits = Limits::defaults_for(function);
    if let Json::Obj(fields) = tree {
        if let Some(i) = fields.iter().position(|(k, _)| k == "limits") {
            let (_, v) = fields.remove(i);
            if v != Json::Null {
                let given: PartialLimits = json::decode(&v, &format!("{what}.limits"))?;
                limits = given.over(limits);
            }
        }
    }
    limits.validate().map_err(|e| e.within(what))?;
    Ok(limits)
}
