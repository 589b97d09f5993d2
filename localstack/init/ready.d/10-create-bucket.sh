#!/bin/bash
# Runs inside the LocalStack container once S3 is up (LocalStack's ready.d init hook).
set -euo pipefail
bucket="${OMNIGRAPH_BUCKET:-omnigraph}"
if awslocal s3api head-bucket --bucket "$bucket" 2>/dev/null; then
  echo "bucket s3://$bucket exists"
else
  awslocal s3 mb "s3://$bucket"
fi
