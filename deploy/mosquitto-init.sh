#!/bin/sh
# compose.yaml's broker: on the first start, the dynamic-security file with its admin account,
# then the servers' role and account (docs/DEPLOY.md, "2. Mosquitto with dynamic security");
# afterwards Mosquitto alone. Passwords from MQTT_ADMIN_PASSWORD and MQTT_SERVER_PASSWORD.
set -eu
FILE=/mosquitto/data/dynsec.json
if [ -f "$FILE" ]; then exec mosquitto -c /mosquitto/config/mosquitto.conf; fi
mosquitto_ctrl dynsec init "$FILE" dynsec-admin "$MQTT_ADMIN_PASSWORD"
mosquitto -c /mosquitto/config/mosquitto.conf &
broker=$!
C="mosquitto_ctrl -h 127.0.0.1 -p 1883 -u dynsec-admin -P $MQTT_ADMIN_PASSWORD dynsec"
until $C listRoles >/dev/null 2>&1; do sleep 0.5; done
$C createRole esl-server
$C addRoleACL esl-server publishClientSend 'esl/v1/#' allow
$C addRoleACL esl-server publishClientReceive 'esl/v1/#' allow
$C addRoleACL esl-server subscribePattern 'esl/v1/#' allow
$C addRoleACL esl-server subscribePattern '$share/esl/esl/v1/#' allow
$C createClient esl-server -p "$MQTT_SERVER_PASSWORD"
$C addClientRole esl-server esl-server
wait "$broker"
