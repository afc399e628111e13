//! `mlir-interp debug FILE`: a line-oriented debugger in the manner of gdb.
//! It starts paused before the entry function's first op; commands set
//! breakpoints (a line, a function, an op name) and watchpoints (a memref
//! element), step into or over regions and calls, and print values in
//! scope (memref, tensor and vector slices as tables). On a terminal it
//! edits lines and keeps history (rustyline); otherwise it reads plain
//! lines, echoing each after its prompt, so `debug FILE < script` gives a
//! readable transcript. The command set is in [`HELP`].

use super::{line_of, Ended, Points, Reason, Resume, Stopped, Ui, Where};
use mlir_ir::diag::Source;
use mlir_ir::ir::{Module, OpId};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// The prompt.
pub const PROMPT: &str = "(mlir-dbg) ";

/// What `help` prints.
pub const HELP: &str = "\
Running:
  step [N]      (s)   run to the next op, into regions and calls
  next [N]      (n)   run to the next op of this region or an outer one
  finish        (fin) run until the current function returns
  continue      (c)   run until a breakpoint, a watchpoint, a fault or the end
                      (Ctrl-C pauses a running program)
  run, restart  (r)   start the program again (breakpoints are kept)
  quit          (q)   leave
Breakpoints:
  break LINE | FILE:LINE | @FUNC | OP.NAME   (b)  stop there (no argument: this line)
  watch %m[i, j]       stop after an op changes this memref element
  delete [N...] (d)    delete points N (no argument: all)
  info breakpoints     list breakpoints and watchpoints
Looking:
  print %v | %v[a:b, :, i]  (p)  a value, or a slice as a table
  info locals          the values in scope and computed so far
  backtrace     (bt)   the call stack with source locations
  frame N | up | down  select a frame for print and info locals
  list [LINE]   (l)    source around the current op (or LINE)
An empty line repeats the last step, next or list.";

/// One read from the user.
pub enum Input {
    /// A line.
    Line(String),
    /// Ctrl-C at the prompt.
    Interrupt,
    /// End of input.
    Eof,
}

/// Where commands come from.
pub trait Lines {
    /// Shows `prompt` and reads one line.
    fn read(&mut self, prompt: &str) -> Input;
}

/// Lines from a reader (a pipe or a file): the prompt and the command are
/// echoed, so a scripted session reads as it would have looked.
pub struct Plain<R: BufRead>(pub R);

impl<R: BufRead> Lines for Plain<R> {
    fn read(&mut self, prompt: &str) -> Input {
        let mut line = String::new();
        let r = self.0.read_line(&mut line);
        let mut out = std::io::stdout();
        match r {
            Ok(0) | Err(_) => {
                let _ = writeln!(out, "{prompt}");
                Input::Eof
            }
            Ok(_) => {
                let line = line.trim_end_matches(['\n', '\r']).to_string();
                let _ = writeln!(out, "{prompt}{line}");
                Input::Line(line)
            }
        }
    }
}

/// Lines from a terminal, with editing and history.
pub struct Editor(pub rustyline::DefaultEditor);

impl Lines for Editor {
    fn read(&mut self, prompt: &str) -> Input {
        use rustyline::error::ReadlineError;
        match self.0.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = self.0.add_history_entry(line.as_str());
                }
                Input::Line(line)
            }
            Err(ReadlineError::Interrupted) => Input::Interrupt,
            Err(_) => Input::Eof,
        }
    }
}

/// The REPL front end.
pub struct Repl<'a> {
    m: &'a Module,
    src: &'a Source,
    input: Box<dyn Lines + 'a>,
    /// Function names, for `break @f`.
    funcs: Vec<String>,
    /// The last repeatable command.
    last: String,
    /// The frame `print` and `info locals` look at.
    frame: usize,
    /// Steps left of a `step N`/`next N`.
    repeat: (Resume, usize),
    /// The line after the last one `list` showed, where the next bare
    /// `list` goes on (as gdb's does, without overlap).
    listed: Option<usize>,
}

/// What one command asks for.
enum Act {
    /// Read another command.
    Stay,
    /// Let the run go on (or start one).
    Go(Resume),
}

impl<'a> Repl<'a> {
    /// A REPL on `m` (read from `src`) reading commands from `input`.
    pub fn new(m: &'a Module, src: &'a Source, input: Box<dyn Lines + 'a>) -> Repl<'a> {
        Repl {
            m,
            src,
            input,
            funcs: Vec::new(),
            last: String::new(),
            frame: 0,
            repeat: (Resume::Continue, 0),
            listed: None,
        }
    }

    /// Reads commands until one resumes (or starts) the run.
    fn prompt(&mut self, s: Option<&Stopped<'_, '_>>, points: &mut Points) -> Resume {
        loop {
            let _ = std::io::stdout().flush();
            let line = match self.input.read(PROMPT) {
                Input::Line(l) => l,
                Input::Interrupt => {
                    println!("Quit (use 'quit' to leave)");
                    continue;
                }
                Input::Eof => return Resume::Quit,
            };
            let line = if line.trim().is_empty() { self.last.clone() } else { line.trim().to_string() };
            if line.is_empty() {
                continue;
            }
            match self.command(&line, s, points) {
                Ok(Act::Stay) => {}
                Ok(Act::Go(r)) => return r,
                Err(msg) => println!("{msg}"),
            }
        }
    }

    /// Runs one command.
    fn command(&mut self, line: &str, s: Option<&Stopped<'_, '_>>, points: &mut Points) -> Result<Act, String> {
        let (cmd, arg) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        let running = || s.ok_or_else(|| "The program is not being run ('run' starts it).".to_string());
        let count = |a: &str| -> Result<usize, String> {
            if a.is_empty() {
                return Ok(1);
            }
            a.parse::<usize>().ok().filter(|n| *n > 0).ok_or_else(|| format!("'{a}' is not a positive count"))
        };
        self.last.clear();
        match cmd {
            "s" | "step" | "n" | "next" => {
                running()?;
                let how = if cmd.starts_with('s') { Resume::Step } else { Resume::Next };
                self.repeat = (how, count(arg)? - 1);
                self.last = cmd.to_string();
                Ok(Act::Go(how))
            }
            "fin" | "finish" => {
                running()?;
                Ok(Act::Go(Resume::Finish))
            }
            "c" | "cont" | "continue" => {
                running()?;
                Ok(Act::Go(Resume::Continue))
            }
            "r" | "run" | "restart" => {
                if s.is_some() {
                    println!("Restarting.");
                }
                Ok(Act::Go(Resume::Restart))
            }
            "q" | "quit" | "exit" => Ok(Act::Go(Resume::Quit)),
            "h" | "help" => {
                println!("{HELP}");
                Ok(Act::Stay)
            }
            "b" | "break" => {
                let at = self.break_at(arg, s)?;
                let id = points.add_break(at.clone());
                println!("Breakpoint {id} at {}", self.describe(&at));
                Ok(Act::Stay)
            }
            "watch" => {
                let s = running()?;
                let w = s.watch(self.frame, arg)?;
                println!("Watchpoint {}: {} = {}", points.add_watch(w.clone()), w.expr, w.last);
                Ok(Act::Stay)
            }
            "d" | "delete" => {
                if arg.is_empty() {
                    points.clear();
                    println!("Deleted all breakpoints and watchpoints.");
                }
                for a in arg.split_whitespace() {
                    let id = a.parse::<usize>().map_err(|_| format!("'{a}' is not a breakpoint number"))?;
                    if !points.delete(id) {
                        return Err(format!("No breakpoint number {id}."));
                    }
                }
                Ok(Act::Stay)
            }
            "info" | "i" => match arg {
                "b" | "break" | "breakpoints" | "watch" | "watchpoints" => {
                    self.info_points(points);
                    Ok(Act::Stay)
                }
                "locals" => {
                    let s = running()?;
                    let l = s.locals(self.frame);
                    if l.is_empty() {
                        println!("No values in scope yet.");
                    }
                    for x in l {
                        println!("{x}");
                    }
                    Ok(Act::Stay)
                }
                _ => Err("info what? 'info locals' or 'info breakpoints'".to_string()),
            },
            "p" | "print" => {
                let s = running()?;
                if arg.is_empty() {
                    return Err("print what? print %v, or %v[1:3, :] for a slice".to_string());
                }
                println!("{}", s.print(self.frame, arg)?);
                Ok(Act::Stay)
            }
            "bt" | "backtrace" | "where" => {
                for l in running()?.backtrace() {
                    println!("{l}");
                }
                Ok(Act::Stay)
            }
            "frame" | "f" | "up" | "down" => {
                let s = running()?;
                let want = match cmd {
                    "up" => self.frame + count(arg)?,
                    "down" => self
                        .frame
                        .checked_sub(count(arg)?)
                        .ok_or("Bottom (innermost) frame selected; you cannot go down.")?,
                    _ if arg.is_empty() => self.frame,
                    _ => arg.parse::<usize>().map_err(|_| format!("'{arg}' is not a frame number"))?,
                };
                if want >= s.depth() {
                    return Err(format!("No frame {want} (the stack has {} frame(s)).", s.depth()));
                }
                let Some((op, _)) = s.frame(want) else {
                    return Err(format!("Frame {want} was entered by a call the debugger did not see."));
                };
                self.frame = want;
                println!("#{want}  @{} at {}", s.func_name(want), s.loc(op));
                self.show_line(line_of(self.src, self.m, op));
                Ok(Act::Stay)
            }
            "l" | "list" => {
                let current = s.map(|s| line_of(self.src, self.m, s.frame(self.frame).map_or(s.op, |f| f.0)));
                let first = if arg.is_empty() {
                    match (self.listed, current) {
                        (Some(next), _) => next,
                        (None, Some(line)) => line.saturating_sub(5).max(1),
                        (None, None) => 1,
                    }
                } else {
                    let centre = arg.parse::<usize>().map_err(|_| format!("'{arg}' is not a line number"))?;
                    if centre > self.src.line_count() {
                        return Err(format!(
                            "Line {centre} is past the end of {} ({} lines).",
                            self.src.name,
                            self.src.line_count()
                        ));
                    }
                    centre.saturating_sub(5).max(1)
                };
                self.list(first, current);
                self.last = "list".to_string();
                Ok(Act::Stay)
            }
            _ => Err(format!("Undefined command: '{cmd}'. Try 'help'.")),
        }
    }

    /// The place `break ARG` names.
    fn break_at(&self, arg: &str, s: Option<&Stopped<'_, '_>>) -> Result<Where, String> {
        if arg.is_empty() {
            let s = s.ok_or("break where? a line, @function or op name")?;
            return Ok(Where::Line(line_of(self.src, self.m, s.frame(self.frame).map_or(s.op, |f| f.0))));
        }
        let line = match arg.rsplit_once(':') {
            Some((file, n)) if n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty() => {
                let base = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
                if file != self.src.name && base(file) != base(&self.src.name) {
                    return Err(format!("No source file named {file} (debugging {}).", self.src.name));
                }
                n.parse::<usize>().ok()
            }
            _ => arg.parse::<usize>().ok(),
        };
        if let Some(n) = line {
            // A line without an op means the next one that has one, as in
            // gdb and the DAP server.
            return match super::op_line_from(self.src, self.m, n).filter(|_| n >= 1) {
                Some(at) => Ok(Where::Line(at)),
                None => Err(format!("No op starts on or after line {n} of {}.", self.src.name)),
            };
        }
        let name = arg.strip_prefix('@').unwrap_or(arg);
        if self.funcs.iter().any(|f| f == name) {
            return Ok(Where::Func(name.to_string()));
        }
        if !arg.starts_with('@') && arg.contains('.') {
            if !self.ops().any(|op| self.m.op_name(op) == arg) {
                return Err(format!("No op named {arg} in the program."));
            }
            return Ok(Where::Op(arg.to_string()));
        }
        Err(format!("No function @{name} in the program."))
    }

    fn ops(&self) -> impl Iterator<Item = OpId> + '_ {
        super::body_ops(self.m)
    }

    /// A breakpoint's place, with the source line for a line.
    fn describe(&self, at: &Where) -> String {
        match at {
            Where::Line(n) => format!("{}:{n}: {}", self.src.name, self.src.line_text(*n).trim()),
            Where::Op(name) => {
                let n = self.ops().filter(|op| self.m.op_name(*op) == name).count();
                format!("op {name} ({n} in the program)")
            }
            w => w.to_string(),
        }
    }

    fn info_points(&self, points: &Points) {
        if points.breaks.is_empty() && points.watches.is_empty() {
            println!("No breakpoints or watchpoints.");
            return;
        }
        println!("Num  What");
        let mut rows: Vec<(usize, String)> = points
            .breaks
            .iter()
            .map(|b| {
                let hits = match b.hits {
                    0 => String::new(),
                    1 => "  (hit once)".to_string(),
                    n => format!("  (hit {n} times)"),
                };
                (b.id, format!("break {}{hits}", b.at))
            })
            .collect();
        rows.extend(points.watches.iter().map(|w| (w.id, format!("watch {} = {}", w.expr, w.last))));
        rows.sort();
        for (id, text) in rows {
            println!("{id:<4} {text}");
        }
    }

    /// Ten source lines from `first`, `=>` at `current`.
    fn list(&mut self, first: usize, current: Option<usize>) {
        let last = self.src.line_count();
        let end = (first + 10).min(last + 1);
        if first > last {
            println!("Line number {first} out of range; {} has {last} lines.", self.src.name);
            return;
        }
        for n in first..end {
            let mark = if Some(n) == current { "=>" } else { "  " };
            println!("{mark}{n:>5}  {}", self.src.line_text(n));
        }
        self.listed = Some(end);
    }

    /// `LINE  text` of the current line.
    fn show_line(&self, n: usize) {
        println!("{n}\t{}", self.src.line_text(n));
    }

    /// What the pause is, where it is.
    fn banner(&self, s: &Stopped<'_, '_>) {
        match s.reason {
            Reason::Entry => println!("Stopped at the entry of @{}.", s.func_name(0)),
            Reason::Step => {}
            Reason::Returned(f, vals) if vals.is_empty() => println!("Run till exit from @{f}: returned."),
            Reason::Returned(f, vals) => println!("Run till exit from @{f}: returned {}", vals.join(", ")),
            Reason::Breakpoint(id) => println!("Breakpoint {id}, @{}", s.func_name(0)),
            Reason::Watch(hits) => {
                for (i, h) in hits.iter().enumerate() {
                    // gdb separates the watchpoints one op triggers by a blank line.
                    if i > 0 {
                        println!();
                    }
                    println!("Watchpoint {}: {}\nOld value = {}\nNew value = {}", h.id, h.expr, h.old, h.new);
                }
            }
            Reason::Interrupted => println!("Program interrupted."),
            Reason::Fault(err) => {
                print!("{}", err.render(s.e.m, self.src));
                println!("The program stopped at the failing op; its state can be inspected ('run' restarts, 'quit' leaves).");
            }
        }
        let after = if s.after {
            format!(" (after {})", s.e.m.op_name(s.op))
        } else if s.e.m.is_implicit(s.op) {
            // The parser's terminator stands at the `}`, which says nothing of it.
            format!(" (implicit {})", s.e.m.op_name(s.op))
        } else {
            String::new()
        };
        println!("@{} at {}{after}", s.func_name(0), s.loc(s.op));
        self.show_line(line_of(self.src, self.m, s.op));
    }
}

impl Ui for Repl<'_> {
    fn stop(&mut self, s: &Stopped<'_, '_>, points: &mut Points) -> Resume {
        if matches!(s.reason, Reason::Step) && self.repeat.1 > 0 {
            self.repeat.1 -= 1;
            return self.repeat.0;
        }
        self.repeat.1 = 0;
        self.frame = 0;
        self.listed = None;
        INTERRUPTED.store(false, Ordering::Relaxed);
        let _ = std::io::stdout().flush();
        self.banner(s);
        self.prompt(Some(s), points)
    }

    fn ended(&mut self, end: &Ended, points: &mut Points) -> Resume {
        let _ = std::io::stdout().flush();
        match end {
            Ended::Exited(results) => {
                print!("{results}");
                println!("[program exited normally]");
            }
            Ended::Failed { err, text, seen } => {
                if !seen {
                    print!("{text}");
                }
                println!("[program ended: {}]", err.kind);
            }
        }
        self.frame = 0;
        self.listed = None;
        let how = self.prompt(None, points);
        if how != Resume::Quit {
            println!("Starting the program again.");
        }
        how
    }

    fn say(&mut self, msg: &str) {
        println!("{msg}");
    }

    fn program_output(&mut self) -> Box<dyn Write> {
        Box::new(std::io::stdout())
    }

    fn loaded(&mut self, funcs: Vec<String>) {
        self.funcs = funcs;
    }

    fn poll(&mut self, _points: &mut Points) -> bool {
        INTERRUPTED.swap(false, Ordering::Relaxed)
    }
}

/// Set by Ctrl-C while the program runs (at the prompt, the line editor
/// reads Ctrl-C as a key instead).
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Makes Ctrl-C pause the running program instead of ending the process.
pub fn catch_interrupts() {
    // Without a handler (another one is installed) Ctrl-C keeps its default.
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::Relaxed));
}
