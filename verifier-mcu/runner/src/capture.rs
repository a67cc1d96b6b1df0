//! `mcu-run capture`: records device runs from the board's USB serial port, with an overall
//! timeout. A leaf: `main` parses the flags into [`Capture`] and calls [`run`].
//!
//! The firmware runs only when asked (`picostark_core::board`): the capture asserts DTR
//! (the firmware drops its output while no host holds the port open), sends the request line
//! `pstk1 start`, reads until the run's `done` line, and asks again (after the run's `exit`
//! line) until it has the requested number of runs. A `panic`, `oom` or `fault` line, or an
//! `exit` without a `done`, ends the capture as a firmware error; the firmware repeats such a
//! line on every request, so a capture started after the fact still reads it.
//!
//! The serial port is opened with the `serialport` crate (without its libudev feature, so
//! nothing beyond the C library is needed). The capture loop itself works on any
//! [`Read`] + [`Write`], which is how it is tested. The saved log is what `compare report
//! --in` and `compare all --device-log` read.

use std::io::{ErrorKind, Read, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use picostark_core::board::write_request_line;
use picostark_core::record::{parse_line, parse_log};

/// What `mcu-run capture` was asked for.
pub struct Capture {
    /// Serial device, e.g. /dev/ttyACM0.
    pub port: String,
    /// Save the log here (`--out`; default: device-TIME.log in the current folder).
    pub out: Option<PathBuf>,
    /// Baud rate (`--baud`, default 115200; ignored by USB CDC devices).
    pub baud: u32,
    /// Give up after this many seconds (`--timeout`, default 600).
    pub timeout: u64,
    /// Stop after this many `done` lines (`--runs`, default 1).
    pub runs: usize,
}

/// Why a capture stopped: the requested number of `done` lines arrived (`None`), or the
/// firmware panicked, ran out of memory, faulted or ended a run without a `done` line (its
/// line), or the deadline passed, or the port closed.
pub type Stop = Option<String>;

/// Sends one request line to the firmware.
fn request<W: Write + ?Sized>(port: &mut W) -> std::io::Result<()> {
    let mut line = String::new();
    let _ = write_request_line(&mut line); // writing to a String cannot fail
    port.write_all(line.as_bytes())?;
    port.flush()
}

/// Requests runs from `port` and writes its lines to `sink` (and stdout) until `runs` `done`
/// lines, a firmware error, the end of the stream or `timeout`. Returns the captured text.
pub fn capture_from<P: Read + Write + ?Sized>(
    port: &mut P,
    sink: &mut dyn Write,
    runs: usize,
    timeout: Duration,
) -> std::io::Result<(String, Stop)> {
    let deadline = Instant::now() + timeout;
    let (mut text, mut pending, mut buf) = (String::new(), Vec::new(), [0u8; 512]);
    // `done` lines so far, and whether the run in progress printed its own.
    let (mut done, mut run_done) = (0, false);
    request(port)?;
    while Instant::now() <= deadline {
        let n = match port.read(&mut buf) {
            Ok(0) => return Ok((text, Some("port closed".into()))),
            Ok(n) => n,
            Err(e) if matches!(e.kind(), ErrorKind::TimedOut | ErrorKind::WouldBlock) => continue,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        pending.extend_from_slice(&buf[..n]);
        while let Some(pos) = pending.iter().position(|&b| b == b'\n') {
            let raw: Vec<u8> = pending.drain(..=pos).collect();
            let line = String::from_utf8_lossy(&raw).trim_end().to_string();
            writeln!(sink, "{line}")?;
            println!("{line}");
            text += &format!("{line}\n");
            let kind = parse_line(&line).map(|l| l.kind);
            match kind.as_deref() {
                Some("done") => {
                    (done, run_done) = (done + 1, true);
                    if done >= runs {
                        return Ok((text, None));
                    }
                }
                // `exit` closes every firmware run: after a `done`, ask for the next run;
                // without one the run could not complete (e.g. no usable proof).
                Some("exit") if run_done => {
                    run_done = false;
                    request(port)?;
                }
                // `error` lines (a clock warning, a cycle-counter check), `clock` and
                // `dropped` lines do not end the run: they are kept.
                Some("panic" | "oom" | "fault" | "exit") => {
                    return Ok((text, Some(format!("firmware error: {line}"))));
                }
                _ => {}
            }
        }
    }
    Ok((text, Some("timed out".into())))
}

/// The current UTC time as `YYYY-MM-DD-HH-MM`, for the default log name.
fn utc_minute() -> String {
    let rfc3339 = humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string();
    format!("{}-{}", &rfc3339[..10], rfc3339[11..16].replace(':', "-"))
}

/// `mcu-run capture`: opens the port and captures into the log file.
pub fn run(a: &Capture) -> Result<(), String> {
    let now = utc_minute();
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| format!("device-{now}.log").into());
    let mut file = std::fs::File::create(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let port = &a.port;
    let p = serialport::new(port, a.baud).timeout(Duration::from_millis(250));
    let mut p = p.open().map_err(|e| format!("{port}: {e}"))?;
    // USB CDC ACM devices ignore the baud rate; the firmware writes only while DTR is set.
    let _ = p.write_data_terminal_ready(true);
    let _ = p.clear(serialport::ClearBuffer::Input);
    let (runs, secs) = (a.runs.max(1), a.timeout);
    eprintln!("capture: requesting {runs} run(s) on {port}; waiting for {runs} `pstk1 done` line(s), at most {secs} s");
    let captured = capture_from(&mut p, &mut file, runs, Duration::from_secs(secs));
    let (text, stop) = captured.map_err(|e| format!("{port}: {e}"))?;
    // Runs with every announced iteration and their `done` line; `compare report` checks
    // the rest (the cycle-counter checks, the clock).
    let logs = parse_log(&text);
    let complete = logs
        .iter()
        .filter(|l| l.genuine_and_tampered().is_ok())
        .count();
    let why = stop.as_deref().unwrap_or("done");
    let out = out.display();
    eprintln!("capture: {why} ({complete} complete run(s)) -> {out}");
    match stop {
        None => Ok(()),
        Some(_) => Err("capture incomplete (the partial log was kept)".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A port that gives one chunk per read (an empty one: a read timeout) and records what
    /// the host writes; after the first `gate` chunks it stays silent until asked again.
    struct Port(Vec<&'static str>, usize, String);

    impl Read for Port {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let asked = self.2.matches("pstk1 start\n").count();
            let silent = self.1 == 0 && asked < 2;
            let c = match self.0.first() {
                None => return Ok(0),
                Some(_) if silent => "",
                Some(_) => self.0.remove(0),
            };
            self.1 = self.1.saturating_sub(usize::from(!silent));
            buf[..c.len()].copy_from_slice(c.as_bytes());
            let timeout = std::io::Error::new(ErrorKind::TimedOut, "t");
            if c.is_empty() {
                Err(timeout)
            } else {
                Ok(c.len())
            }
        }
    }

    impl Write for Port {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.2 += &String::from_utf8_lossy(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Captures `runs` runs from the chunks; returns the requests sent, the text and why it
    /// stopped.
    fn run(chunks: &[&'static str], gate: usize, runs: usize, ms: u64) -> (usize, String, Stop) {
        let (mut port, mut sink) = (Port(chunks.to_vec(), gate, String::new()), Vec::new());
        let timeout = Duration::from_millis(ms);
        let (text, stop) = capture_from(&mut port, &mut sink, runs, timeout).unwrap();
        assert_eq!(sink, text.as_bytes());
        (port.2.matches("pstk1 start\n").count(), text, stop)
    }

    #[test]
    fn asks_for_runs_and_stops_at_done_across_split_chunks() {
        let chunks = [
            "boot\r\npstk1 run backend=p3-m31",
            "",
            " n=1024\r\npstk1 do",
        ];
        let chunks = [&chunks[..], &["ne accepted=1 rejected=1\r\nafter\n"]].concat();
        let (asked, text, stop) = run(&chunks, 9, 1, 5000);
        assert_eq!((stop, asked), (None, 1));
        let want = "boot\npstk1 run backend=p3-m31 n=1024\npstk1 done accepted=1 rejected=1\n";
        assert_eq!(text, want);
        // After each completed run (its `exit` line) it asks again.
        let first = "pstk1 run n=1\npstk1 clock window=iter i=0 cycles=1 timer_us=1 measured_hz=1\npstk1 done\npstk1 exit code=0\n";
        let second = "pstk1 dropped lines=1 bytes=9\npstk1 run n=2\npstk1 done\n";
        let (asked, text, stop) = run(&[first, second], 1, 2, 5000);
        assert_eq!((stop, asked), (None, 2));
        assert!(text.contains("pstk1 run n=2"));
        // Without the second request the firmware stays silent: the deadline ends the capture.
        let (asked, _, stop) = run(&["pstk1 done\n", "pstk1 done\n"], 1, 2, 50);
        assert_eq!((stop.as_deref(), asked), (Some("timed out"), 1));
    }

    #[test]
    fn firmware_errors_and_end_of_stream_stop() {
        let logs = [
            ("pstk1 error what=system-clock-not-150MHz\npstk1 panic message=boom\n", "boom"),
            ("pstk1 oom requested=65536 align=8 in_use=1 peak=2 heap=3\n", "oom"),
            ("pstk1 error what=cycle-counter-not-counting window=calibration\npstk1 fault kind=hardfault pc=0x10000000\n", "hardfault"),
            ("pstk1 error what=proof-file\npstk1 exit code=3\n", "exit code=3"),
        ];
        for (log, needle) in logs {
            let stop = run(&[log], 9, 1, 5000).2.unwrap_or_default();
            let said = stop.starts_with("firmware error") && stop.contains(needle);
            assert!(said, "{stop}");
        }
        let (_, _, stop) = run(&["pstk1 done\n"], 9, 2, 5000);
        assert_eq!(stop.as_deref(), Some("port closed"));
    }
}
