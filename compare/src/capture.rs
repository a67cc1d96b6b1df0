//! `compare capture`: records device runs from the board's USB serial port, with an overall
//! timeout.
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
//! [`Read`] + [`Write`], which is how it is tested.

use std::io::{ErrorKind, Read, Write};
use std::time::{Duration, Instant};

use picostark_core::board::write_request_line;
use picostark_core::record::{parse_line, LINE_PREFIX};

/// Why a capture stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The requested number of `done` lines arrived.
    Done,
    /// The firmware panicked, ran out of memory, faulted, or ended a run without a `done`
    /// line (`pstk1 panic` / `oom` / `fault` / `exit`).
    FirmwareError(String),
    /// The deadline passed first.
    Timeout,
    /// The port closed (end of stream).
    Closed,
}

/// Sends one request line to the firmware.
fn request<W: Write + ?Sized>(port: &mut W) -> std::io::Result<()> {
    let mut line = String::new();
    // Writing to a String cannot fail.
    let _ = write_request_line(&mut line);
    port.write_all(line.as_bytes())?;
    port.flush()
}

/// Requests runs from `port` and reads its lines into `sink` (and echoes them to `echo`)
/// until `runs` `done` lines, a firmware error, the end of the stream or `timeout`. Returns
/// the captured text.
pub fn capture_from<P: Read + Write + ?Sized>(
    port: &mut P,
    sink: &mut dyn Write,
    echo: &mut dyn Write,
    runs: usize,
    timeout: Duration,
) -> std::io::Result<(String, Stop)> {
    let deadline = Instant::now() + timeout;
    let mut text = String::new();
    let mut pending: Vec<u8> = Vec::new();
    let mut done = 0usize;
    // Whether the run in progress has printed its `done` line.
    let mut run_done = false;
    let mut buf = [0u8; 512];
    request(port)?;
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
                        run_done = true;
                        if done >= runs {
                            sink.flush()?;
                            return Ok((text, Stop::Done));
                        }
                    }
                    // `exit` closes every firmware run: after a `done`, ask for the next run;
                    // without one the run could not complete (e.g. no usable proof).
                    "exit" if run_done => {
                        run_done = false;
                        request(port)?;
                    }
                    "panic" | "oom" | "fault" | "exit" => {
                        sink.flush()?;
                        return Ok((text, Stop::FirmwareError(line.clone())));
                    }
                    // `error` lines (a clock warning, a cycle-counter check), `clock` and
                    // `dropped` lines do not end the run: they are kept.
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
    // USB CDC ACM devices ignore the baud rate; the firmware writes only while DTR is set.
    let _ = p.write_data_terminal_ready(true);
    let _ = p.clear(serialport::ClearBuffer::Input);
    eprintln!(
        "capture: requesting {runs} run(s) on {port}; waiting for {runs} `{LINE_PREFIX} done` line(s), at most {} s",
        timeout.as_secs()
    );
    capture_from(&mut p, sink, &mut std::io::stdout(), runs, timeout)
        .map_err(|e| format!("{port}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A port that yields its chunks one per read, with timeouts in between, and records
    /// what the host writes. A chunk tagged `true` is only given after another request.
    struct Port {
        chunks: Vec<(bool, Option<&'static [u8]>)>,
        written: Vec<u8>,
        requests_used: usize,
    }

    impl Port {
        fn new(chunks: Vec<Option<&'static [u8]>>) -> Self {
            Port {
                chunks: chunks.into_iter().map(|c| (false, c)).collect(),
                written: Vec::new(),
                requests_used: 1,
            }
        }

        fn requests(&self) -> usize {
            self.written
                .split(|&b| b == b'\n')
                .filter(|l| *l == b"pstk1 start")
                .count()
        }
    }

    impl Read for Port {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some(&(needs_request, chunk)) = self.chunks.first() else {
                return Ok(0);
            };
            // A real firmware says nothing until it is asked again.
            if needs_request {
                if self.requests() <= self.requests_used {
                    return Err(std::io::Error::new(ErrorKind::TimedOut, "t"));
                }
                self.requests_used += 1;
            }
            self.chunks.remove(0);
            match chunk {
                Some(c) => {
                    buf[..c.len()].copy_from_slice(c);
                    Ok(c.len())
                }
                None => Err(std::io::Error::new(ErrorKind::TimedOut, "t")),
            }
        }
    }

    impl Write for Port {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.written.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn run(port: &mut Port, runs: usize) -> (String, Stop) {
        capture_from(
            port,
            &mut Vec::new(),
            &mut Vec::new(),
            runs,
            Duration::from_secs(5),
        )
        .unwrap()
    }

    #[test]
    fn requests_a_run_and_stops_at_done_across_split_chunks() {
        let mut port = Port::new(vec![
            Some(b"boot\r\npstk1 run backend=p3-m31"),
            None,
            Some(b" n=1024\r\npstk1 do"),
            Some(b"ne accepted=1 rejected=1\r\nafter\n"),
        ]);
        let mut sink = Vec::new();
        let (text, stop) = capture_from(
            &mut port,
            &mut sink,
            &mut Vec::new(),
            1,
            Duration::from_secs(5),
        )
        .unwrap();
        assert_eq!(stop, Stop::Done);
        assert_eq!(
            text,
            "boot\npstk1 run backend=p3-m31 n=1024\npstk1 done accepted=1 rejected=1\n"
        );
        assert_eq!(sink, text.as_bytes());
        assert_eq!(port.written, b"pstk1 start\n");
    }

    #[test]
    fn asks_again_after_each_completed_run() {
        let mut port = Port::new(vec![Some(
            b"pstk1 run n=1\npstk1 clock window=iter i=0 cycles=1 timer_us=1 measured_hz=1\npstk1 done\npstk1 exit code=0\n",
        )]);
        port.chunks.push((
            true,
            Some(b"pstk1 dropped lines=1 bytes=9\npstk1 run n=2\npstk1 done\n"),
        ));
        let (text, stop) = run(&mut port, 2);
        assert_eq!(stop, Stop::Done);
        assert_eq!(port.requests(), 2);
        assert!(text.contains("pstk1 run n=2"));
        // Without the second request the firmware stays silent: the deadline ends the capture.
        let mut port = Port::new(vec![Some(b"pstk1 done\n")]);
        port.chunks.push((true, Some(b"pstk1 done\n")));
        let (_, stop) = capture_from(
            &mut port,
            &mut Vec::new(),
            &mut Vec::new(),
            2,
            Duration::from_millis(50),
        )
        .unwrap();
        assert_eq!(stop, Stop::Timeout);
        assert_eq!(port.requests(), 1);
    }

    #[test]
    fn firmware_errors_and_end_of_stream_stop() {
        for (log, needle) in [
            (
                &b"pstk1 error what=system-clock-not-150MHz\npstk1 panic message=boom\n"[..],
                "boom",
            ),
            (
                b"pstk1 oom requested=65536 align=8 in_use=1 peak=2 heap=3\n",
                "oom",
            ),
            (
                b"pstk1 error what=cycle-counter-not-counting window=calibration\npstk1 fault kind=hardfault pc=0x10000000\n",
                "hardfault",
            ),
            (b"pstk1 error what=proof-file\npstk1 exit code=3\n", "exit code=3"),
        ] {
            let (_, stop) = run(&mut Port::new(vec![Some(log)]), 1);
            assert!(
                matches!(&stop, Stop::FirmwareError(l) if l.contains(needle)),
                "{stop:?}"
            );
        }
        let (_, stop) = run(&mut Port::new(vec![Some(b"pstk1 done\n")]), 2);
        assert_eq!(stop, Stop::Closed);
    }
}
