# Container image of the panel for docker-compose.yml (the appliance image is built by appliance/).
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends python3 python3-venv nodejs npm \
    redis-tools ca-certificates && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY requirements.txt package.json package-lock.json ./
RUN python3 -m venv /app/.venv && /app/.venv/bin/pip install --no-cache-dir -r requirements.txt \
    && npm ci --no-audit --no-fund
COPY . .
RUN scripts/vendor.sh
ENV NASUI_DATA_DIR=/data PATH=/app/.venv/bin:$PATH
EXPOSE 8000
CMD ["sh", "-c", "python manage.py migrate --noinput && python manage.py ensure_admin && python manage.py collectstatic --noinput -v 0 && exec gunicorn nasui.wsgi --bind 0.0.0.0:8000 --workers 2 --worker-class gthread --threads 8"]
