"""File sharing through the API above the protocols: the wizards, a folder's owner."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nasui.api.bodies import validated
from sharing.files import serializers as s
from sharing.files import services
from sharing.smb import serializers as smb_serializers
from storage.ownership import selectors as ownership_selectors


class ShareWizardView(APIView):
    """Share a dataset over SMB, NFS or both in one call: dataset, user, shares, or nothing."""

    @extend_schema(
        request=s.ShareWizardSerializer,
        responses={201: s.ShareWizardResultSerializer},
    )
    def post(self, request: Request) -> Response:
        made = services.share_dataset(**validated(s.ShareWizardSerializer, request.data))
        result = {
            "dataset": made.dataset,
            "path": made.path,
            "smb_share": made.share,
            "nfs_share": made.export,
            "new_user": made.new_user,
            "summary": services.summary(made),
        }
        return Response(s.ShareWizardResultSerializer(result).data, status=status.HTTP_201_CREATED)


class SmbShareWizardView(APIView):
    """The SMB-only wizard that scripts already call: it answers with the SMB share, as before."""

    @extend_schema(
        request=s.ShareWizardSerializer,
        responses={201: smb_serializers.SmbShareSerializer},
    )
    def post(self, request: Request) -> Response:
        data = validated(s.ShareWizardSerializer, request.data)
        if data["protocols"] != ["smb"]:
            # Its answer is the SMB share alone: an export made here would go unreported.
            raise serializers.ValidationError(
                {"protocols": ["This address makes SMB shares only: use /api/sharing/wizard/."]}
            )
        made = services.share_dataset(**data)
        return Response(
            smb_serializers.SmbShareSerializer(made.share).data, status=status.HTTP_201_CREATED
        )


class PermissionsView(APIView):
    """Owner, group and mode of a dataset's folder."""

    @extend_schema(request=s.PermissionsSerializer, responses=s.PermissionsResultSerializer)
    def put(self, request: Request) -> Response:
        data = validated(s.PermissionsSerializer, request.data)
        job = services.dataset_owner_set(**data, user=request.user)
        current = ownership_selectors.dataset_permissions(data["dataset"]) or (0, 0, 0)
        uid, gid, mode = current
        result = {"dataset": data["dataset"], "uid": uid, "gid": gid, "mode": f"{mode:o}"}
        return Response(
            s.PermissionsResultSerializer({**result, "job": job.pk if job else None}).data
        )
