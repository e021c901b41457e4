from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = []

    operations = [
        migrations.CreateModel(
            name="Rollup",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "resolution",
                    models.PositiveSmallIntegerField(
                        choices=[(60, "1 minute"), (900, "15 minutes")]
                    ),
                ),
                ("t", models.IntegerField()),
                ("values", models.JSONField(default=dict)),
            ],
            options={"ordering": ["resolution", "t"]},
        ),
        migrations.CreateModel(
            name="Sample",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("t", models.FloatField(db_index=True)),
                ("values", models.JSONField(default=dict)),
                ("info", models.JSONField(default=dict)),
            ],
            options={"ordering": ["t"]},
        ),
        migrations.AddConstraint(
            model_name="rollup",
            constraint=models.UniqueConstraint(
                fields=("resolution", "t"), name="monitoring_rollup_unique"
            ),
        ),
    ]
