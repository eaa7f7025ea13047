"""Setting up a Raspberry Pi to run the board at boot: `dvonn-board setup-pi`.

What it does, each step printed (and with ``dry_run`` only printed):

- writes ``/etc/dvonn-board/board.toml``, a copy of the chosen profile (kept if it exists: it is
  yours to edit);
- writes the systemd unit ``/etc/systemd/system/dvonn-board.service``: the board runs as the
  dedicated system user ``dvonn`` (in the groups for the serial port, GPIO and SPI), its games
  and calibration in ``StateDirectory=`` (``/var/lib/dvonn-board``), its profile in
  ``ConfigurationDirectory=`` (``/etc/dvonn-board``); root only where rpi_ws281x needs it;
- writes the udev rule ``/etc/udev/rules.d/99-dvonn-board.rules``: the scanner's USB serial
  port as ``/dev/dvonn-scanner``, kept away from ModemManager (``ID_MM_DEVICE_IGNORE``), and
  on a Pi 5 with LEDs through the kernel's ws2812-pio, ``/dev/leds*`` for the gpio group;
- adds what the profile needs to ``/boot/firmware/config.txt`` (SPI, the ws2812-pio overlay,
  audio off for PWM LEDs), only lines that are not there yet;
- on the real root (``/``), creates the user and reloads systemd and udev; under another
  ``root`` (a test, an SD card image mounted elsewhere) it prints those commands instead.

>>> plan = make_plan(load_profile(), executable="/opt/dvonn-board/bin/dvonn-board")
>>> [f.path for f in plan.files]
['/etc/dvonn-board/board.toml', '/etc/systemd/system/dvonn-board.service', '/etc/udev/rules.d/99-dvonn-board.rules']
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .profile import Profile, load_profile  # noqa: F401 (load_profile: the doctest)

USER = "dvonn"
SERVICE = "dvonn-board"
CONFIG_DIR = "/etc/dvonn-board"
PROFILE_PATH = f"{CONFIG_DIR}/board.toml"
UNIT_PATH = f"/etc/systemd/system/{SERVICE}.service"
UDEV_PATH = "/etc/udev/rules.d/99-dvonn-board.rules"
BOOT_CONFIG = "/boot/firmware/config.txt"
SCANNER_LINK = "dvonn-scanner"
RP2040_USB = ("2e8a", "0005")  # MicroPython on an RP2040 (the Pico)


@dataclass(frozen=True)
class PlannedFile:
    path: str  # absolute, on the Pi
    text: str
    keep_existing: bool = False  # the user's file: never overwritten
    append_lines: bool = False  # add only the lines that are missing (config.txt)
    summary: str = ""  # shown instead of the text by a dry run


@dataclass
class Plan:
    files: list[PlannedFile] = field(default_factory=list)
    commands: list[list[str]] = field(default_factory=list)  # run on the real root, in order


def unit_text(profile: Profile, executable: str, user: str = USER) -> str:
    """The systemd unit for `profile`, starting `executable` (the installed dvonn-board)."""
    root = profile.leds.driver == "ws281x"  # rpi_ws281x's PWM/PCM modes map /dev/mem
    lines = [
        "[Unit]",
        "Description=DVONN electronic board",
        "After=network-online.target",
        "Wants=network-online.target",
        "",
        "[Service]",
        "Type=simple",
    ]
    if root:
        lines.append("# rpi_ws281x drives the LEDs by DMA and needs root (profile [leds] driver = \"ws281x\")")
        lines.append("User=root")
    else:
        lines += [f"User={user}", f"Group={user}", "SupplementaryGroups=dialout gpio spi audio"]
    lines += [
        f"StateDirectory={SERVICE}",
        f"ConfigurationDirectory={SERVICE}",
        "# games.sqlite3 and calibration.json live in the StateDirectory, /var/lib/dvonn-board",
        "Environment=XDG_DATA_HOME=%S",
        "Environment=PYTHONUNBUFFERED=1",
        f"ExecStart={executable} play --profile %E/{SERVICE}/board.toml",
        "Restart=on-failure",
        "RestartSec=3",
        "",
        "[Install]",
        "WantedBy=multi-user.target",
    ]
    return "\n".join(lines) + "\n"


def udev_text(profile: Profile) -> str:
    """The udev rules: the scanner's stable name, and /dev/leds* for the Pi 5's ws2812-pio."""
    vid, pid = RP2040_USB
    lines = ["# dvonn-board: written by `dvonn-board setup-pi`"]
    if profile.scanner.kind == "serial" or profile.leds.driver == "serial":
        lines += [
            "# The scanner (MicroPython on an RP2040) as /dev/dvonn-scanner, and ModemManager",
            "# told to leave it alone (it would send AT commands into it for about 10 s).",
            f'SUBSYSTEM=="tty", ATTRS{{idVendor}}=="{vid}", ATTRS{{idProduct}}=="{pid}", '
            f'SYMLINK+="{SCANNER_LINK}", GROUP="dialout", MODE="0660", ENV{{ID_MM_DEVICE_IGNORE}}="1"',
        ]
    if profile.leds.driver == "pio":
        lines += [
            "# The Pi 5's ws2812-pio LED device (root-only by default). Match the node, not the",
            "# subsystem: a rule on SUBSYSTEM==\"*-pio\" leaves the LEDs dark.",
            'KERNEL=="leds[0-9]*", GROUP="gpio", MODE="0660"',
        ]
    return "\n".join(lines) + "\n"


def boot_config_lines(profile: Profile) -> list[str]:
    """Lines /boot/firmware/config.txt needs for this profile (none for the reference board)."""
    lines = []
    if profile.scanner.kind == "direct":
        lines.append("dtparam=spi=on")
    if profile.leds.driver == "pio":
        lines.append(f"dtoverlay=ws2812-pio,gpio={profile.leds.gpio},num_leds={profile.leds.count}")
    if profile.leds.driver == "ws281x" and profile.leds.gpio in (12, 18, 13, 19):
        lines.append("dtparam=audio=off")  # the PWM block drives the LEDs, not the audio
    return lines


def profile_text(profile_arg: str | Path | None) -> str:
    """The text of the chosen profile: a file, or a packaged profile's name."""
    from importlib import resources

    from .profile import packaged_profiles

    name = str(profile_arg or "default")
    if not Path(name).exists() and name in packaged_profiles():
        return (resources.files("dvonn_hw") / "profiles" / f"{name}.toml").read_text(encoding="utf-8")
    return Path(name).read_text(encoding="utf-8")


def make_plan(profile: Profile, executable: str, text: str | None = None, user: str = USER) -> Plan:
    plan = Plan()
    plan.files.append(PlannedFile(PROFILE_PATH, text if text is not None else profile_text(profile.name),
                                  keep_existing=True, summary=f"a copy of the profile {profile.name!r}"))
    plan.files.append(PlannedFile(UNIT_PATH, unit_text(profile, executable, user)))
    plan.files.append(PlannedFile(UDEV_PATH, udev_text(profile)))
    boot = boot_config_lines(profile)
    if boot:
        plan.files.append(PlannedFile(BOOT_CONFIG, "\n".join(boot) + "\n", append_lines=True))
    plan.commands = [
        ["useradd", "--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin",
         "--groups", "dialout,gpio,spi,audio", user],
        ["systemctl", "daemon-reload"],
        ["udevadm", "control", "--reload"],
        ["udevadm", "trigger", "--subsystem-match=tty"],
        ["systemctl", "enable", "--now", SERVICE],
    ]
    return plan


def apply(plan: Plan, root: Path, dry_run: bool, say=print, run=subprocess.run) -> int:
    """Write the plan's files under `root`, print each step; run its commands on the real root.

    Returns the exit status: 0, or 1 when a file could not be written or a command failed.
    """
    root = Path(root)
    real_root = root.resolve() == Path("/")
    verb = "would write" if dry_run else "wrote"
    for f in plan.files:
        target = root / f.path.lstrip("/")
        if f.keep_existing and target.exists():
            say(f"kept {target} (yours: edit it, then `sudo systemctl restart {SERVICE}`)")
            continue
        if f.append_lines:
            old = target.read_text(encoding="utf-8") if target.exists() else ""
            present = {line.strip() for line in old.splitlines()}
            missing = [line for line in f.text.splitlines() if line.strip() not in present]
            if not missing:
                say(f"{target} already has {', '.join(f.text.split())}")
                continue
            say(f"{'would add' if dry_run else 'added'} to {target}: {', '.join(missing)} "
                "(takes effect after a reboot)")
            if not dry_run:
                if not _write(target, old + ("" if old.endswith("\n") or not old else "\n")
                              + "# dvonn-board\n" + "\n".join(missing) + "\n", say):
                    return 1
            continue
        say(f"{verb} {target}" + (f": {f.summary}" if f.summary else ""))
        if dry_run:
            if not f.summary:
                say("    " + f.text.rstrip("\n").replace("\n", "\n    "))
        elif not _write(target, f.text, say):
            return 1
    if not real_root or dry_run:
        say("then, on the Pi (as root):" if not real_root else "would run:")
        for cmd in plan.commands:
            say("    " + " ".join(cmd))
        return 0
    for cmd in plan.commands:
        if cmd[0] == "useradd" and _user_exists(cmd[-1]):
            say(f"user {cmd[-1]} exists")
            continue
        if shutil.which(cmd[0]) is None:
            say(f"skipped `{' '.join(cmd)}`: {cmd[0]} is not on this system")
            continue
        say("ran " + " ".join(cmd))
        result = run(cmd)
        if result.returncode != 0:
            say(f"`{' '.join(cmd)}` failed with status {result.returncode}")
            return 1
    return 0


def _write(target: Path, text: str, say) -> bool:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        say(f"cannot write {target}: {exc.strerror or exc} (run with sudo?)")
        return False
    return True


def _user_exists(name: str) -> bool:
    import pwd
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def installed_executable() -> str:
    """The dvonn-board command of this installation (a venv's or pipx's bin folder)."""
    here = Path(sys.argv[0])
    if here.name == "dvonn-board" and here.exists():
        return str(here.absolute())
    candidate = Path(sys.prefix) / "bin" / "dvonn-board"
    return str(candidate)
