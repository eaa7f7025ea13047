"""`dvonn-board setup-pi` against a temporary root: the unit, rule and profile the README shows."""

import configparser
import re
from pathlib import Path

from firmware_py.cli import main
from dvonn_hw import setup_pi
from dvonn_hw.profile import load_profile

README = (Path(__file__).parent.parent / "hw" / "README.md").read_text()
EXE = "/opt/dvonn-board/bin/dvonn-board"


def unit(root: Path) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read_string((root / "etc/systemd/system/dvonn-board.service").read_text())
    return parser


def test_writes_unit_rule_and_profile_under_the_root(tmp_path, capsys):
    assert main(["setup-pi", "--root", str(tmp_path), "--executable", EXE]) == 0
    out = capsys.readouterr().out
    service = unit(tmp_path)["Service"]
    assert service["User"] == "dvonn" and service["Group"] == "dvonn"
    assert "dialout" in service["SupplementaryGroups"]
    assert service["StateDirectory"] == "dvonn-board"
    assert service["ConfigurationDirectory"] == "dvonn-board"
    assert service["ExecStart"] == f"{EXE} play --profile %E/dvonn-board/board.toml"
    assert service["Restart"] == "on-failure"
    assert unit(tmp_path)["Install"]["WantedBy"] == "multi-user.target"
    rule = (tmp_path / "etc/udev/rules.d/99-dvonn-board.rules").read_text()
    line = next(line for line in rule.splitlines() if line.startswith("SUBSYSTEM"))
    assert 'SYMLINK+="dvonn-scanner"' in line and 'ENV{ID_MM_DEVICE_IGNORE}="1"' in line
    assert 'ATTRS{idVendor}=="2e8a"' in line
    profile = tmp_path / "etc/dvonn-board/board.toml"
    assert load_profile(profile).scanner.port == "/dev/dvonn-scanner"  # what the rule makes
    assert not (tmp_path / "boot").exists()  # the reference board needs nothing in config.txt
    for path in ("etc/dvonn-board/board.toml", "etc/systemd/system/dvonn-board.service",
                 "etc/udev/rules.d/99-dvonn-board.rules"):
        assert f"wrote {tmp_path / path}" in out
    assert "useradd --system" in out and "systemctl enable --now dvonn-board" in out


def test_dry_run_writes_nothing_and_shows_the_files(tmp_path, capsys):
    assert main(["setup-pi", "--root", str(tmp_path), "--dry-run", "--executable", EXE]) == 0
    out = capsys.readouterr().out
    assert list(tmp_path.iterdir()) == []
    assert "would write" in out and "StateDirectory=dvonn-board" in out
    assert "ID_MM_DEVICE_IGNORE" in out


def test_readme_shows_what_setup_pi_writes():
    """The unit and the rule in hw/README.md are the ones setup-pi writes, line for line."""
    profile = load_profile()
    for text in (setup_pi.unit_text(profile, "/opt/dvonn-board/bin/dvonn-board"),
                 setup_pi.udev_text(profile)):
        for line in text.splitlines():
            if line and not line.startswith("#"):
                assert line in README, line


def test_existing_profile_is_kept_and_config_lines_added_once(tmp_path, capsys):
    mine = tmp_path / "etc/dvonn-board/board.toml"
    mine.parent.mkdir(parents=True)
    mine.write_text("# mine\n")
    boot = tmp_path / "boot/firmware/config.txt"
    boot.parent.mkdir(parents=True)
    boot.write_text("[all]\ndtparam=spi=on\n")
    args = ["setup-pi", "--root", str(tmp_path), "--profile", "direct-pi5", "--executable", EXE]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert mine.read_text() == "# mine\n" and "kept" in out
    text = boot.read_text()
    assert text.count("dtparam=spi=on") == 1
    assert "dtoverlay=ws2812-pio,gpio=18,num_leds=50" in text
    rule = (tmp_path / "etc/udev/rules.d/99-dvonn-board.rules").read_text()
    assert 'KERNEL=="leds[0-9]*", GROUP="gpio", MODE="0660"' in rule
    assert "dvonn-scanner" not in rule  # no scanner on the direct board
    assert unit(tmp_path)["Service"]["User"] == "dvonn"  # the kernel driver needs no root
    assert main(args) == 0  # again: nothing more to add
    assert boot.read_text() == text


def test_direct_with_rpi_ws281x_runs_as_root(tmp_path):
    assert main(["setup-pi", "--root", str(tmp_path), "--profile", "direct", "--executable", EXE]) == 0
    assert unit(tmp_path)["Service"]["User"] == "root"
    assert "dtparam=audio=off" in (tmp_path / "boot/firmware/config.txt").read_text()


def test_bad_profile_is_a_clear_error(tmp_path, capsys):
    assert main(["setup-pi", "--root", str(tmp_path), "--profile", str(tmp_path / "nope.toml")]) == 2
    assert "nope.toml" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text("[leds]\ndriver = 'laser'\n")
    assert main(["setup-pi", "--root", str(tmp_path), "--profile", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "leds.driver" in err and "Traceback" not in err
    assert not (tmp_path / "etc").exists()


def test_unwritable_root_says_so(tmp_path, capsys):
    root = tmp_path / "ro"
    root.mkdir()
    (root / "etc").write_text("a file where a folder should be")
    assert main(["setup-pi", "--root", str(root), "--executable", EXE]) == 1
    assert re.search(r"cannot write .*board\.toml", capsys.readouterr().out)


def test_dry_run_shows_the_unit_and_rule_of_the_readme(tmp_path, capsys):
    """The README's unit and rule blocks, line for line, are what a dry run prints."""
    assert main(["setup-pi", "--root", str(tmp_path), "--dry-run", "--executable", EXE]) == 0
    printed = {line.strip() for line in capsys.readouterr().out.splitlines()}
    unit_block = README.split("```ini\n")[1].split("```")[0]
    rule_line = next(line.strip() for line in README.splitlines()
                     if line.strip().startswith('SUBSYSTEM=="tty"'))
    for line in unit_block.splitlines() + [rule_line]:
        if line.strip():
            assert line.strip() in printed, line
    assert "would write " + str(tmp_path / "etc/dvonn-board/board.toml") + ": a copy of the profile 'default'" in printed
