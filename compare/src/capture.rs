//! `compare capture`: records a device run from the board's USB serial port until the
//! firmware's `done` line, with an overall timeout.
//!
//! The serial port is opened with the `serialport` crate (without its libudev feature, so
//! nothing beyond the C library is needed). The capture loop itself works on any
//! [`Read`], which is how it is tested.

use std::io::{ErrorKind, Read, Write};
use std::time::{Duration, Instant};

use picostark_core::record::{parse_line, LINE_PREFIX};

/// Why a capture stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The requested number of `done` lines arrived.
    Done,
    /// The firmware panicked, or exited before enough `done` lines (`pstk1 panic` /
    /// `pstk1 exit`).
    FirmwareError(String),
    /// The deadline passed first.
    Timeout,
    /// The port closed (end of stream).
    Closed,
}

/// Reads lines from `port` into `sink` (and echoes them to `echo`) until `runs` `done`
/// lines, a firmware error, the end of the stream or `timeout`. Returns the captured text.
pub fn capture_from(
    port: &mut dyn Read,
    sink: &mut dyn Write,
    echo: &mut dyn Write,
    runs: usize,
    timeout: Duration,
) -> std::io::Result<(String, Stop)> {
    let deadline = Instant::now() + timeout;
    let mut text = String::new();
    let mut pending: Vec<u8> = Vec::new();
    let mut done = 0usize;
    let mut buf = [0u8; 512];
    loop {
        if Instant::now() > deadline {
            return Ok((text, Stop::Timeout));
        }
        let n = match port.read(&mut buf) {
            Ok(0) => return Ok((text, Stop::Closed)),
            Ok(n) => n,
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::TimedOut | ErrorKind::WouldBlock | ErrorKind::Interrupted
                ) =>
            {
                continue
            }
            Err(e) => return Err(e),
        };
        pending.extend_from_slice(&buf[..n]);
        while let Some(pos) = pending.iter().position(|&b| b == b'\n') {
            let raw: Vec<u8> = pending.drain(..=pos).collect();
            let line = String::from_utf8_lossy(&raw)
                .trim_end_matches(['\r', '\n'])
                .to_string();
            writeln!(sink, "{line}")?;
            writeln!(echo, "{line}")?;
            text.push_str(&line);
            text.push('\n');
            if let Some(l) = parse_line(&line) {
                match l.kind.as_str() {
                    "done" => {
                        done += 1;
                        if done >= runs {
                            sink.flush()?;
                            return Ok((text, Stop::Done));
                        }
                    }
                    // `exit` closes every firmware run; before enough `done` lines it means
                    // the run ended without one (e.g. no usable proof).
                    "panic" | "exit" => {
                        sink.flush()?;
                        return Ok((text, Stop::FirmwareError(line.clone())));
                    }
                    // `error` lines (e.g. a clock warning) do not end the run: they are kept.
                    _ => {}
                }
            }
        }
    }
}

/// Opens `port` and captures (see [`capture_from`]).
pub fn capture_port(
    port: &str,
    baud: u32,
    sink: &mut dyn Write,
    runs: usize,
    timeout: Duration,
) -> Result<(String, Stop), String> {
    let mut p = serialport::new(port, baud)
        .timeout(Duration::from_millis(250))
        .open()
        .map_err(|e| format!("{port}: {e}"))?;
    // USB CDC ACM devices ignore the baud rate; DTR tells the firmware a host is listening.
    let _ = p.write_data_terminal_ready(true);
    eprintln!(
        "capture: listening on {port}; waiting for {runs} `{LINE_PREFIX} done` line(s), at most {} s",
        timeout.as_secs()
    );
    capture_from(&mut p, sink, &mut std::io::stdout(), runs, timeout)
        .map_err(|e| format!("{port}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that yields its chunks one per call, with timeouts in between.
    struct Chunks(Vec<Option<&'static [u8]>>);
    impl Read for Chunks {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.0.is_empty() {
                return Ok(0);
            }
            match self.0.remove(0) {
                Some(c) => {
                    buf[..c.len()].copy_from_slice(c);
                    Ok(c.len())
                }
                None => Err(std::io::Error::new(ErrorKind::TimedOut, "t")),
            }
        }
    }

    #[test]
    fn stops_at_done_across_split_chunks() {
        let mut port = Chunks(vec![
            Some(b"boot\r\npstk1 run backend=p3-m31"),
            None,
            Some(b" n=1024\r\npstk1 do"),
            Some(b"ne accepted=1 rejected=1\r\nafter\n"),
        ]);
        let (mut sink, mut echo) = (Vec::new(), Vec::new());
        let (text, stop) =
            capture_from(&mut port, &mut sink, &mut echo, 1, Duration::from_secs(5)).unwrap();
        assert_eq!(stop, Stop::Done);
        assert_eq!(
            text,
            "boot\npstk1 run backend=p3-m31 n=1024\npstk1 done accepted=1 rejected=1\n"
        );
        assert_eq!(sink, text.as_bytes());
    }

    #[test]
    fn error_lines_and_end_of_stream_stop() {
        let mut port = Chunks(vec![Some(
            b"pstk1 error what=system-clock-not-150MHz\npstk1 panic message=oom\n",
        )]);
        let (_, stop) = capture_from(
            &mut port,
            &mut Vec::new(),
            &mut Vec::new(),
            1,
            Duration::from_secs(5),
        )
        .unwrap();
        assert!(matches!(stop, Stop::FirmwareError(l) if l.contains("oom")));
        let mut port = Chunks(vec![Some(
            b"pstk1 error what=proof-file\npstk1 exit code=3\n",
        )]);
        let (_, stop) = capture_from(
            &mut port,
            &mut Vec::new(),
            &mut Vec::new(),
            1,
            Duration::from_secs(5),
        )
        .unwrap();
        assert!(matches!(stop, Stop::FirmwareError(l) if l.contains("exit code=3")));
        let mut port = Chunks(vec![Some(b"pstk1 done\n")]);
        let (_, stop) = capture_from(
            &mut port,
            &mut Vec::new(),
            &mut Vec::new(),
            2,
            Duration::from_secs(5),
        )
        .unwrap();
        assert_eq!(stop, Stop::Closed);
    }

    #[test]
    fn times_out() {
        struct Silent;
        impl Read for Silent {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                std::thread::sleep(Duration::from_millis(5));
                Err(std::io::Error::new(ErrorKind::TimedOut, "t"))
            }
        }
        let (_, stop) = capture_from(
            &mut Silent,
            &mut Vec::new(),
            &mut Vec::new(),
            1,
            Duration::from_millis(30),
        )
        .unwrap();
        assert_eq!(stop, Stop::Timeout);
    }
}
