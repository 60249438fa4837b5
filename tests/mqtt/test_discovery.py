"""Home Assistant's discovery messages: the shape its MQTT discovery reads."""

from __future__ import annotations

import json
import re

from companion.mqtt import discovery


def test_each_sensor_config_has_what_home_assistant_reads():
    msgs = discovery.messages("r1", "t1")
    assert [t for t, _ in msgs] == [f"homeassistant/sensor/companion_r1_t1/{o}/config"
                                    for o in ("status", "turn", "detection")]
    configs = [json.loads(p) for _, p in msgs]
    assert len({c["unique_id"] for c in configs}) == 3
    for topic, config in zip((t for t, _ in msgs), configs):
        # <prefix>/<component>/<node_id>/<object_id>/config, ids of [a-zA-Z0-9_-]
        assert re.fullmatch(r"homeassistant/sensor/[\w-]+/[\w-]+/config", topic)
        assert config["state_topic"] == "companion/r1/t1/state"
        assert config["availability_topic"] == "companion/r1/t1/availability"
        assert (config["payload_available"], config["payload_not_available"]) == \
            ("online", "offline")
        assert config["device"]["identifiers"] == ["companion_r1_t1"]
        assert config["value_template"].startswith("{{") and config["name"]
    assert discovery.messages("r1", "t2")[0][1] != msgs[0][1]  # each box its own device


def test_the_templates_read_fields_the_snapshot_has(tmp_path):
    """Each value_json path a template names is in the state of an Entanglion game."""
    from web_rig import make_sim

    from companion.inputs import Press
    from companion.web import snapshot

    sim = make_sim(tmp_path, 3)
    for _ in range(5):  # into a game: main menu, three set-up steps, start
        sim.box.handle(Press("OK"))
    snap = snapshot.build(sim.box.session)
    assert snap["mode"] == "game"
    for _, payload in discovery.messages("r", "t"):
        for path in re.findall(r"value_json((?:\.\w+)+)", json.loads(payload)["value_template"]):
            value = snap
            for key in path.strip(".").split("."):
                value = value[key]
