//! Reading and checking the API's parameters, and its errors: every bad input becomes a
//! 4xx answer with a one-line JSON error, never a panic.

use axum::Json;
use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use std::collections::HashMap;

/// An error answer: its status and message (`{"error": message}`).
#[derive(Debug)]
pub struct ApiError(pub StatusCode, pub String);

impl ApiError {
    /// 400 Bad Request.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, message.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

impl From<super::jobs::Busy> for ApiError {
    fn from(_: super::jobs::Busy) -> ApiError {
        ApiError(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "the server is busy with {} heavy jobs; try again when one ends",
                super::jobs::MAX_JOBS
            ),
        )
    }
}

impl From<nqueens::Error> for ApiError {
    fn from(e: nqueens::Error) -> ApiError {
        match e {
            nqueens::Error::BoardSize(_) | nqueens::Error::Placement(_) => {
                ApiError::bad(message(&e))
            }
            _ => ApiError(StatusCode::INTERNAL_SERVER_ERROR, message(&e)),
        }
    }
}

/// A library error's message on one line, with its causes: the library keeps an I/O error
/// as the source of its own ([`nqueens::Failure`]), not in its text.
pub fn message(error: &nqueens::Error) -> String {
    format!("{:#}", anyhow::Error::from(error.clone()))
}

/// The query parameters as axum reads them, each pair in its order, or why they cannot be read.
pub type QueryResult = Result<Query<Vec<(String, String)>>, QueryRejection>;

/// The query parameters of a request.
pub struct Params(HashMap<String, String>);

impl Params {
    /// The parameters of a request to an endpoint that takes `names`: a 400 for a query that
    /// cannot be read, a parameter given twice (`n=8&n=9` must not quietly mean 9) or one the
    /// endpoint does not take (a misspelt one must not quietly be ignored).
    pub fn read(query: QueryResult, names: &[&str]) -> Result<Params, ApiError> {
        let Query(pairs) = query.map_err(|e| ApiError::bad(format!("unreadable query: {e}")))?;
        let mut map = HashMap::new();
        for (name, value) in pairs {
            if !names.contains(&name.as_str()) {
                let takes = match names {
                    [] => "no parameters".to_owned(),
                    [one] => format!("only '{one}'"),
                    names => names
                        .iter()
                        .map(|n| format!("'{n}'"))
                        .collect::<Vec<_>>()
                        .join(", "),
                };
                return Err(ApiError::bad(format!(
                    "unknown parameter '{name}': this endpoint takes {takes}"
                )));
            }
            if map.contains_key(&name) {
                return Err(ApiError::bad(format!(
                    "parameter '{name}' is given more than once"
                )));
            }
            map.insert(name, value);
        }
        Ok(Params(map))
    }

    /// The raw value of `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.0.get(name).map(|s| s.trim())
    }

    /// A required parameter.
    pub fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name)
            .ok_or_else(|| ApiError::bad(format!("missing parameter '{name}'")))
    }

    /// The board size `n`, between 1 and `max`.
    pub fn n(&self, max: u32) -> Result<u32, ApiError> {
        parse_n(self.required("n")?, max)
    }

    /// A yes/no flag: absent, `0`, `false` are no; `1`, `true` are yes.
    pub fn flag(&self, name: &str) -> Result<bool, ApiError> {
        match self.get(name) {
            None | Some("0" | "false" | "") => Ok(false),
            Some("1" | "true") => Ok(true),
            Some(other) => Err(ApiError::bad(format!(
                "parameter '{name}' must be 0 or 1, not '{other}'"
            ))),
        }
    }
}

/// A board size from text, between 1 and `max`.
pub fn parse_n(text: &str, max: u32) -> Result<u32, ApiError> {
    let out_of_range = || {
        ApiError::bad(format!(
            "n must be a whole number from 1 to {max}, not '{text}'"
        ))
    };
    let n: u32 = text.parse().map_err(|_| out_of_range())?;
    if (1..=max).contains(&n) {
        Ok(n)
    } else {
        Err(out_of_range())
    }
}

/// A solution number `k` (from 0) from text.
pub fn parse_k(text: &str) -> Result<u128, ApiError> {
    text.parse()
        .map_err(|_| ApiError::bad(format!("k must be a whole number from 0, not '{text}'")))
}

/// A solution of the n x n board written as its columns (`0 4 7 5 2 6 1 3`, spaces or
/// commas between them).
pub fn parse_solution(text: &str, n: u32) -> Result<Vec<u32>, ApiError> {
    let columns = text
        .split([' ', ','])
        .filter(|w| !w.is_empty())
        .map(|w| {
            w.parse::<u32>()
                .map_err(|_| ApiError::bad(format!("'{w}' is not a column number")))
        })
        .collect::<Result<Vec<u32>, ApiError>>()?;
    if columns.len() != n as usize {
        return Err(ApiError::bad(format!(
            "a solution of n = {n} has {}, not {}",
            plural(n.into(), "column"),
            columns.len()
        )));
    }
    nqueens::check_columns(&columns)
        .map_err(|e| ApiError::bad(format!("not a solution of n = {n}: {e}")))?;
    Ok(columns)
}

/// "1 queen", "2 queens": a count and its noun.
pub fn plural(count: u128, noun: &str) -> String {
    nqueens::parse::plural(count, noun)
}

/// A board count as JSON: a decimal string, since counts exceed what JavaScript's numbers
/// hold exactly (2^53).
pub fn count_json(count: u128) -> serde_json::Value {
    serde_json::Value::String(count.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_solutions_are_checked() {
        assert_eq!(parse_n("8", 32).unwrap(), 8);
        for bad in ["0", "33", "-1", "x", "", "8.5"] {
            assert!(parse_n(bad, 32).is_err(), "{bad}");
        }
        assert_eq!(parse_solution("1 3 0 2", 4).unwrap(), [1, 3, 0, 2]);
        assert_eq!(parse_solution("1,3,0,2", 4).unwrap(), [1, 3, 0, 2]);
        for bad in ["1 3 0", "1 3 0 2 4", "0 1 2 3", "1 3 0 9", "a b c d"] {
            assert!(parse_solution(bad, 4).is_err(), "{bad}");
        }
        assert!(parse_k("18446744073709551616").is_ok());
        assert!(parse_k("-1").is_err());
        assert_eq!(plural(1, "queen"), "1 queen");
        assert_eq!(plural(0, "queen"), "0 queens");
        assert_eq!(plural(2, "queen"), "2 queens");
    }
}
