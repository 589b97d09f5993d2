{{/* Chart name, overridable. */}}
{{- define "omnigraph.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Full resource name: release-chart, or the release name alone when it already holds the chart name. */}}
{{- define "omnigraph.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{- define "omnigraph.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "omnigraph.selectorLabels" -}}
app.kubernetes.io/name: {{ include "omnigraph.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "omnigraph.labels" -}}
helm.sh/chart: {{ include "omnigraph.chart" . }}
{{ include "omnigraph.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{- define "omnigraph.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/*
Refuses values that would break the single-writer or auth invariants, at render time.
*/}}
{{- define "omnigraph.validate" -}}
{{- if ne (int .Values.replicaCount) 1 }}
{{- fail (printf "replicaCount must be 1 (got %v): the write gates are process-local, so a second pod on the same graph root would not exclude the first; install one release per graph root instead" .Values.replicaCount) }}
{{- end }}
{{- if ne .Values.strategy.type "Recreate" }}
{{- fail (printf "strategy.type must be Recreate (got %s): a rolling update would run two writers at once" .Values.strategy.type) }}
{{- end }}
{{- if not .Values.storage.uri }}
{{- fail "storage.uri is required (s3://bucket/prefix)" }}
{{- end }}
{{- if and (not .Values.auth.actors) (not .Values.auth.allowUnauthenticated) }}
{{- fail "auth.actors is empty: the service listens on 0.0.0.0 in the pod; list the actors whose token hashes are in existingSecret, or set auth.allowUnauthenticated=true" }}
{{- end }}
{{- if and (or .Values.auth.actors .Values.storage.s3.credentialsFromSecret) (not .Values.existingSecret) }}
{{- fail "existingSecret is required for auth.actors and storage.s3.credentialsFromSecret" }}
{{- end }}
{{- range .Values.auth.actors }}
{{- if not (regexMatch "^[a-z0-9]+$" (toString .)) }}
{{- fail (printf "auth.actors: %q must be lowercase letters and digits (it travels as an environment name)" (toString .)) }}
{{- end }}
{{- end }}
{{- range $id, $uri := .Values.graphs }}
{{- if not (regexMatch "^[a-z0-9]+$" $id) }}
{{- fail (printf "graphs: id %q must be lowercase letters and digits (it travels as an environment name)" $id) }}
{{- end }}
{{- end }}
{{- end }}
