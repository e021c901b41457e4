"""Page-number pagination; scripts may ask for bigger pages with ?page_size=."""

from rest_framework.pagination import PageNumberPagination


class Pagination(PageNumberPagination):
    """50 items a page by default, up to 1,000 when asked."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 1000
