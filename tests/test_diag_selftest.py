"""`diag selftest` on the simulator: each injected fault is flagged and fails the test; a
healthy board passes."""

import json

import pytest

from firmware_py.cli import main


def selftest(capsys, *options):
    status = main(["diag", "selftest", "--backend", "sim", "--seed", "3", "--frames", "150",
                   "--json", *options])
    return status, json.loads(capsys.readouterr().out)


def test_healthy_board_passes(capsys):
    status, report = selftest(capsys)
    assert status == 0 and report["ok"] and report["faults"] == []
    checks = {c["name"]: c for c in report["checks"]}
    assert set(checks) == {"link", "frame rate", "continuity", "noise", "LED strip"}
    assert all(c["ok"] for c in checks.values())
    assert report["link"]["frames"] == 150 and report["link"]["rate_hz"] == pytest.approx(100, 0.01)
    assert len(report["sensors"]) == 49
    assert all(0.01 < s["noise_mt"] < 0.1 for s in report["sensors"])  # 0.1 mT / sqrt(8)


@pytest.mark.parametrize("fault, space, kind", [
    ("dead:e3", "e3", "dead"), ("stuck:c2=2100", "c2", "stuck"), ("noisy:d4", "d4", "noisy"),
    ("saturated:k5", "k5", "saturated")])
def test_each_fault_is_flagged_and_fails(capsys, fault, space, kind):
    status, report = selftest(capsys, "--fault", fault)
    assert status == 1 and not report["ok"]
    assert [(f["space"], f["kind"]) for f in report["faults"]] == [(space, kind)]
    assert report["faults"][0]["check"]  # says what to check
    flagged = {s["space"]: s["flag"] for s in report["sensors"] if s["flag"]}
    assert flagged == {space: kind}


def test_several_faults_at_once(capsys):
    status, report = selftest(capsys, "--fault", "dead:a1", "--fault", "noisy:k5",
                              "--fault", "stuck:e3")
    assert status == 1
    assert {(f["space"], f["kind"]) for f in report["faults"]} == {
        ("a1", "dead"), ("k5", "noisy"), ("e3", "stuck")}


def test_a_bad_board_fails_on_noise(capsys):
    status, report = selftest(capsys, "--noise", "bad")
    checks = {c["name"]: c["ok"] for c in report["checks"]}
    assert status == 1 and checks["noise"] is False and checks["link"] is True


def test_human_report(capsys):
    status = main(["diag", "selftest", "--backend", "sim", "--frames", "100", "--fault", "dead:e3"])
    out = capsys.readouterr().out
    assert status == 1
    assert "FAIL" in out and "e3" in out and "dead" in out and "mux 1 input 7" in out


def test_no_scanner_is_a_link_fault_not_a_crash(capsys, tmp_path):
    missing = tmp_path / "no-such-port"
    status = main(["diag", "selftest", "--port", str(missing), "--frames", "5", "--json"])
    report = json.loads(capsys.readouterr().out)
    checks = {c["name"]: c["ok"] for c in report["checks"]}
    assert status == 1 and checks["link"] is False and checks["LED strip"] is False


def test_fault_options_need_the_simulator(capsys):
    assert main(["diag", "selftest", "--fault", "dead:e3"]) == 2
    assert "--backend sim" in capsys.readouterr().err
    assert main(["diag", "selftest", "--backend", "sim", "--fault", "dead:zz"]) == 2
    assert "no space named 'zz'" in capsys.readouterr().err


def test_a_noise_free_board_says_stuck_sensors_were_not_checked(capsys):
    status, report = selftest(capsys, "--noise", "clean", "--fault", "stuck:c2=2100")
    assert status == 0 and report["faults"] == []
    assert "stuck sensors are not checked" in report["notes"][0]


def test_the_simulator_follows_the_profile_adc(capsys, tmp_path):
    from importlib import resources
    text = (resources.files("dvonn_hw") / "profiles" / "direct.toml").read_text()
    ten_bit = tmp_path / "ten-bit.toml"
    ten_bit.write_text(text.replace('type = "MCP3208"', 'type = "MCP3008"'))
    status, report = selftest(capsys, "--profile", str(ten_bit))
    assert status == 0 and max(s["mean"] for s in report["sensors"]) < 1024
    status, report = selftest(capsys, "--profile", str(ten_bit), "--fault", "dead:a1",
                              "--fault", "stuck:k5=600")
    assert {(f["space"], f["kind"]) for f in report["faults"]} == {("a1", "dead"), ("k5", "stuck")}
